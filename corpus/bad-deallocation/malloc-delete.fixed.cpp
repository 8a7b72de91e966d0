/* ub-case
 * category: bad-deallocation
 * standard: C++17 [basic.stc.dynamic.deallocation]/3
 * summary: the fixed twin of malloc-delete.cpp: free() for malloc()
 * ub: no
 * fixes: malloc-delete.cpp
 * fixed-line: 18
 */
#include <cstdio>
#include <cstdlib>

int main(int argc, char **)
{
    int *p = static_cast<int *>(std::malloc(sizeof(int) * argc));
    if (!p) return 1;
    *p = 9;
    std::printf("%d\n", *p);
    std::free(p);
    std::puts("deleted");
    return 0;
}
