/* ub-case
 * category: bad-deallocation
 * standard: C++17 [expr.delete]/2
 * summary: the fixed twin of array-of-objects.cpp: delete[] for new[]
 * ub: no
 * fixes: array-of-objects.cpp
 * fixed-line: 32
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
    delete[] a;
    std::puts("deleted");
    return 0;
}
