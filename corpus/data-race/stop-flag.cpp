/* ub-case
 * category: data-race
 * standard: C++17 [intro.races]/21
 * summary: a worker thread spins until a plain bool stop flag written by the main thread becomes true
 * ub: yes
 * link: -pthread
 * note: unexploited, the worker sees the flag soon after the main thread's 10 ms sleep and stops
 */
#include <chrono>
#include <cstdio>
#include <thread>

static bool stop;

int main(int argc, char **)
{
    unsigned long spins = 0;
    std::thread worker([&spins] {
        while (!stop)
            spins++;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stop = argc > 0;
    worker.join();
    std::puts(spins > 0 ? "stopped after spinning" : "stopped at once");
    return 0;
}
