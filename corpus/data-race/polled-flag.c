/* ub-case
 * category: data-race
 * standard: C17 5.1.2.4p35
 * summary: the main thread polls a plain int that another thread sets, with no atomics or locks
 * ub: yes
 * link: -pthread -D_POSIX_C_SOURCE=200809L
 * note: unexploited, the poll sees the store within about 10 ms; hoisting the load out of the loop spins forever
 * ub-line: 30, 21
 * twin: polled-flag.fixed.c
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static int ready;

static void *producer(void *arg)
{
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
    ready = *(int *)arg;
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argv;
    pthread_t t;
    pthread_create(&t, NULL, producer, &argc);
    while (!ready) {
    }
    pthread_join(t, NULL);
    printf("ready %d\n", ready);
    return 0;
}
