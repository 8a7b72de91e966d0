/* ub-case
 * category: bad-deallocation
 * standard: C++17 [basic.stc.dynamic.deallocation]/3
 * summary: memory from malloc released with delete
 * ub: yes
 * note: libstdc++'s operator delete calls free(), so an unexploited run just works
 * ub-line: 19
 * twin: malloc-delete.fixed.cpp
 */
#include <cstdio>
#include <cstdlib>

int main(int argc, char **)
{
    int *p = static_cast<int *>(std::malloc(sizeof(int) * argc));
    if (!p) return 1;
    *p = 9;
    std::printf("%d\n", *p);
    delete p;
    std::puts("deleted");
    return 0;
}
