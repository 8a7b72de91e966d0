/* ub-case
 * category: data-race
 * standard: C17 5.1.2.4p35
 * summary: the fixed twin of polled-flag.c: the flag is an atomic_int
 * ub: no
 * fixes: polled-flag.c
 * fixed-line: 30, 21
 * link: -pthread -D_POSIX_C_SOURCE=200809L
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static atomic_int ready;

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
