/* ub-case
 * category: control
 * standard: C17 7.21.6.1p8
 * summary: floating-point sums, products, square roots and a series, printed with fixed precision; no undefined behaviour
 * ub: no
 * link: -lm
 */
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    double sum = 0.0;
    for (int i = 1; i <= 1000; i++)
        sum += 1.0 / ((double)i * i);
    double pi = sqrt(6.0 * sum);
    float f = 0.1f * argc;
    float acc = 0.0f;
    for (int i = 0; i < 10; i++)
        acc += f;
    double root = sqrt(2.0 * argc);
    double mean = 0.0;
    for (int i = 0; i < 100; i++)
        mean += (i % 10) * 0.25;
    mean /= 100.0;
    printf("%.6f %.4f %.9f %.3f\n", pi, acc, root, mean);
    return 0;
}
