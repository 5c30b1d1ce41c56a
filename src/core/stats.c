#include "core/stats.h"

struct skiff_stats skiff_stats;
