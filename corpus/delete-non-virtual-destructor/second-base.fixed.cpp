/* ub-case
 * category: delete-non-virtual-destructor
 * standard: C++17 [expr.delete]/3
 * summary: the fixed twin of second-base.cpp: the second base has a virtual destructor
 * ub: no
 * fixes: second-base.cpp
 * fixed-line: 37
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
    virtual ~Printable() {}
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
