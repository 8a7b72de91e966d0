/* ub-case
 * category: bad-deallocation
 * standard: C++17 [expr.delete]/2
 * summary: the fixed twin of array-new-scalar-delete.cpp: delete[] for new[]
 * ub: no
 * fixes: array-new-scalar-delete.cpp
 * fixed-line: 16
 */
#include <cstdio>

int main(int argc, char **)
{
    int *a = new int[4 * argc];
    a[0] = 5;
    std::printf("%d\n", a[0]);
    delete[] a;
    std::puts("deleted");
    return 0;
}
