/* ub-case
 * category: bad-deallocation
 * standard: C++17 [expr.delete]/2
 * summary: new int[] released with scalar delete
 * ub: yes
 * note: for a trivially destructible type both forms end in free() of the same address with glibc
 * ub-line: 17
 * twin: array-new-scalar-delete.fixed.cpp
 */
#include <cstdio>

int main(int argc, char **)
{
    int *a = new int[4 * argc];
    a[0] = 5;
    std::printf("%d\n", a[0]);
    delete a;
    std::puts("deleted");
    return 0;
}
