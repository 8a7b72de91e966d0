/* ub-case
 * category: delete-non-virtual-destructor
 * standard: C++17 [expr.delete]/3
 * summary: an object is deleted through a pointer to its second base class, which has no virtual destructor
 * ub: yes
 * note: the pointer is not the start of the allocation, so glibc rejects it (SIGABRT); the handler prints that and exits 0
 * ub-line: 38
 * twin: second-base.fixed.cpp
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

struct Named {
    long id = 1;
};

struct Printable {
    long width = 2;
    ~Printable() {}
};

struct Report : Named, Printable {
    long pages = 3;
};

int main(int argc, char **)
{
    std::signal(SIGABRT, on_signal);
    Printable *p = argc > 0 ? new Report : new Printable;
    delete p;
    std::puts("deleted");
    return 0;
}
