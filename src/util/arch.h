#ifndef SKIFF_ARCH_H
#define SKIFF_ARCH_H

/* Tell the CPU we are spinning: frees the sibling hyperthread and saves power. */
static inline void skiff_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

#define SKIFF_LIKELY(x) __builtin_expect(!!(x), 1)
#define SKIFF_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif
