/* ub-case
 * category: pointer-comparison
 * standard: C++17 [expr.add]/5
 * summary: subtracting pointers to two different objects and using the difference to step between them
 * ub: yes
 * note: with flat addresses the difference leads from one object to the other and reads its value
 */
#include <cstddef>
#include <cstdio>

int first[4] = {1, 2, 3, 4};
int second[4] = {5, 6, 7, 8};

int main(int argc, char **)
{
    std::ptrdiff_t gap = second - first;
    int *p = first + gap + argc;
    std::printf("%d\n", *p);
    return 0;
}
