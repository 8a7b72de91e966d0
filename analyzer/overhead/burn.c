/* A fixed amount of CPU work for `warnscope overhead calibrate`: N iterations of a
 * dependent integer recurrence (no memory traffic, no system calls), so the CPU time
 * it needs is the same whatever else the machine does. N = 0: spin until killed
 * (the competing load). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    unsigned long long n = argc > 1 ? strtoull(argv[1], NULL, 10) : 0, x = 88172645463325252ULL;
    for (unsigned long long i = 0; n == 0 || i < n; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    }
    printf("%llu\n", x);
    return 0;
}
