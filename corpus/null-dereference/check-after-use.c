/* ub-case
 * category: null-dereference
 * standard: C17 6.5.3.2p4
 * summary: a struct member is read through a null pointer before the pointer is checked for null
 * ub: yes
 * note: executed as written, the load faults (SIGSEGV); the handler prints that and exits 0
 * ub-line: 29
 * twin: check-after-use.fixed.c
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
    int flags = dev->flags;
    if (dev == NULL)
        return -1;
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
