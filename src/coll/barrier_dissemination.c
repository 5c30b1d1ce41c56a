/* Dissemination barrier, n-way (Hoefler): in round k every rank signals the ranks ways^k, 2*ways^k,
 * ... (ways-1)*ways^k ahead and waits for as many behind. ceil(log_ways(n)) rounds; more ways means
 * fewer rounds at the price of more messages per round. */
#include "coll/algo.h"

void skiff_barrier_dissemination(struct skiff_sched *s, int ways)
{
    int n = s->comm->size, me = s->comm->rank;
    if (ways < 2)
        ways = 2;
    for (int dist = 1; dist < n; dist *= ways) {
        for (int j = 1; j < ways && j * dist < n; j++) {
            skiff_sched_send(s, NULL, 0, (me + j * dist) % n);
            skiff_sched_recv(s, NULL, 0, (me - j * dist % n + n) % n);
        }
        skiff_sched_round(s);
    }
}
