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

/* On the declaration of a library global read on the fast paths. The library is built with
 * -fvisibility=hidden, which marks definitions only: a plain extern declaration makes the compiler reach
 * the variable through the GOT (one more instruction per access, after the linker relaxes it), as if it
 * might live in another shared object. Nothing outside libmpi can see these anyway. */
#define SKIFF_HIDDEN __attribute__((visibility("hidden")))

#define SKIFF_LIKELY(x) __builtin_expect(!!(x), 1)
#define SKIFF_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif
