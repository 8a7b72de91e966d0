/* ub-case
 * category: object-lifetime
 * standard: C++17 [dcl.init]/12
 * summary: storage is memset before placement new, whose constructor leaves the member indeterminate, and the member is read
 * ub: yes
 * note: unexploited, the member still holds the memset bytes; g++ treats stores before the lifetime starts as dead (-flifetime-dse)
 * ub-line: 29
 * twin: memset-before-constructor.fixed.cpp
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
    std::memset(storage, fill, sizeof(Counter));
    return new (storage) Counter;
}

int main(int argc, char **)
{
    alignas(Counter) static unsigned char storage[sizeof(Counter)];
    Counter *c = make(storage, argc);
    std::printf("%08x\n", static_cast<unsigned>(c->value));
    return 0;
}
