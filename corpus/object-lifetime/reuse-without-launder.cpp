/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/8
 * summary: an object with a const member is replaced by placement new and read through the old pointer
 * ub: yes
 * note: without std::launder the old pointer does not refer to the new object; unexploited, it reads the new value 2
 * ub-line: 28
 * twin: reuse-without-launder.fixed.cpp
 */
#include <cstdio>
#include <new>

struct Version {
    const int number;
};

__attribute__((noinline)) static void replace(Version *v, int n)
{
    v->~Version();
    new (v) Version{n};
}

int main(int argc, char **)
{
    Version *v = new Version{1};
    int before = v->number;
    replace(v, 1 + argc);
    std::printf("%d %d\n", before, v->number);
    delete std::launder(v);
    return 0;
}
