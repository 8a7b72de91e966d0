/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/6
 * summary: a member is read through a pointer after the object's destructor cleared it
 * ub: yes
 * note: the stores of a destructor are dead once the lifetime ends, so they may be removed (g++ -flifetime-dse)
 * ub-line: 23
 * twin: destructor-stores.fixed.cpp
 */
#include <cstdio>
#include <new>

struct Secret {
    int key;
    ~Secret() { key = 0; }
};

int main(int argc, char **)
{
    alignas(Secret) unsigned char storage[sizeof(Secret)];
    Secret *s = new (storage) Secret{41 + argc};
    s->~Secret();
    std::printf("%d\n", s->key);
    return 0;
}
