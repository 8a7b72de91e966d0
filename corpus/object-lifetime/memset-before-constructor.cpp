/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/4
 * summary: storage is memset before placement new, and the constructor leaves the member uninitialised
 * ub: yes
 * note: unexploited, the member still holds the memset bytes; stores before the lifetime starts may be dropped
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
