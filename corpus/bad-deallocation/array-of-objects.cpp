/* ub-case
 * category: bad-deallocation
 * standard: C++17 [expr.delete]/2
 * summary: an array of objects with a destructor released with scalar delete
 * ub: yes
 * note: scalar delete runs one destructor and frees the address after the array cookie, which glibc rejects (SIGABRT)
 * ub-line: 33
 * twin: array-of-objects.fixed.cpp
 */
#include <csignal>
#include <cstdio>
#include <unistd.h>

static void on_signal(int)
{
    static const char msg[] = "SIGABRT\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

struct Noisy {
    int id = 0;
    ~Noisy() { std::printf("~Noisy %d\n", id); }
};

int main(int argc, char **)
{
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    std::signal(SIGABRT, on_signal);
    Noisy *a = new Noisy[2 * argc];
    a[0].id = 1;
    a[1].id = 2;
    delete a;
    std::puts("deleted");
    return 0;
}
