/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/8
 * summary: the fixed twin of reuse-without-launder.cpp: the new object is read through the pointer placement new returned
 * ub: no
 * fixes: reuse-without-launder.cpp
 * fixed-line: 27
 */
#include <cstdio>
#include <new>

struct Version {
    const int number;
};

__attribute__((noinline)) static Version *replace(Version *v, int n)
{
    v->~Version();
    return new (v) Version{n};
}

int main(int argc, char **)
{
    Version *v = new Version{1};
    int before = v->number;
    v = replace(v, 1 + argc);
    std::printf("%d %d\n", before, v->number);
    delete v;
    return 0;
}
