/* ub-case
 * category: const-object-modification
 * standard: C++17 [dcl.type.cv]/4
 * summary: the fixed twin of global-const.cpp: the global is not const
 * ub: no
 * fixes: global-const.cpp
 * fixed-line: 25
 */
#include <csignal>
#include <cstdio>
#include <unistd.h>

static void on_signal(int)
{
    static const char msg[] = "SIGSEGV\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

extern int version, spare;
int version = 3, spare = 4;

__attribute__((noinline)) static void bump(const int *p)
{
    *const_cast<int *>(p) += 1;
}

int main(int argc, char **)
{
    std::signal(SIGSEGV, on_signal);
    if (argc > 1) bump(&spare); else bump(&version);
    std::printf("%d\n", version);
    return 0;
}
