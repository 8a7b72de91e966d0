/* ub-case
 * category: object-lifetime
 * standard: C++17 [dcl.init]/12
 * summary: the fixed twin of memset-before-constructor.cpp: the member is filled after the constructor ran
 * ub: no
 * fixes: memset-before-constructor.cpp
 * fixed-line: 29
 */
#include <cstdio>
#include <cstring>
#include <new>

struct Counter {
    int value;
    Counter() {}
};

__attribute__((noinline)) static Counter *make(void *storage, int fill)
{
    Counter *c = new (storage) Counter;
    std::memset(&c->value, fill, sizeof c->value);
    return c;
}

int main(int argc, char **)
{
    alignas(Counter) static unsigned char storage[sizeof(Counter)];
    Counter *c = make(storage, argc);
    std::printf("%08x\n", static_cast<unsigned>(c->value));
    return 0;
}
