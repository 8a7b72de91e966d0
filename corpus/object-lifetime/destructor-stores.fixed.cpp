/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/6
 * summary: the fixed twin of destructor-stores.cpp: the member is read while the object lives
 * ub: no
 * fixes: destructor-stores.cpp
 * fixed-line: 23, 21
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
    int key = s->key;
    s->~Secret();
    std::printf("%d\n", key);
    return 0;
}
