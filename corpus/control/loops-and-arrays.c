/* ub-case
 * category: control
 * standard: C17 6.8.5p1
 * summary: nested loops over arrays the optimiser can vectorise, unroll and fold; no undefined behaviour
 * ub: no
 */
#include <stdint.h>
#include <stdio.h>

#define N 1000

static uint32_t a[N], b[N];

int main(int argc, char **argv)
{
    (void)argv;
    for (int i = 0; i < N; i++) {
        a[i] = (uint32_t)(i * argc);
        b[i] = (uint32_t)(N - i);
    }
    uint32_t dot = 0;
    for (int i = 0; i < N; i++)
        dot += a[i] * b[i];
    uint64_t hash = 1469598103934665603u;
    for (int round = 0; round < 10; round++)
        for (int i = 0; i < N; i++)
            hash = (hash ^ (a[i] + round)) * 1099511628211u;
    long triangle = 0;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= i; j++)
            triangle += j % 7;
    printf("%u %llu %ld\n", (unsigned)dot, (unsigned long long)hash, triangle);
    return 0;
}
