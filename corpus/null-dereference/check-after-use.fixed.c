/* ub-case
 * category: null-dereference
 * standard: C17 6.5.3.2p4
 * summary: the fixed twin of check-after-use.c: the check comes before the load
 * ub: no
 * fixes: check-after-use.c
 * fixed-line: 30
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

struct device {
    int flags;
};

static void on_signal(int sig)
{
    (void)sig;
    static const char msg[] = "SIGSEGV\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

static int poll_device(struct device *dev)
{
    if (dev == NULL)
        return -1;
    int flags = dev->flags;
    return flags;
}

int main(int argc, char **argv)
{
    signal(SIGSEGV, on_signal);
    struct device d = {7};
    struct device *dev = argc > 1 ? &d : NULL;
    (void)argv;
    printf("%d\n", poll_device(dev));
    return 0;
}
