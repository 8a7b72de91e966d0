/* ub-case
 * category: data-race
 * standard: C++17 [intro.races]/21
 * summary: a thread fills a struct and then publishes a plain pointer to it; the reader polls the pointer
 * ub: yes
 * link: -pthread
 * note: unexploited, x86-64 keeps the stores in order and the reader sees the filled struct
 * ub-line: 32, 29
 * twin: published-pointer.fixed.cpp
 */
#include <chrono>
#include <cstdio>
#include <thread>

struct Message {
    int id;
    int payload;
};

static Message *published;

int main(int argc, char **)
{
    static Message m;
    std::thread writer([argc] {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        m.id = argc;
        m.payload = 42;
        published = &m;
    });
    Message *p;
    while ((p = published) == nullptr) {
    }
    std::printf("%d %d\n", p->id, p->payload);
    writer.join();
    return 0;
}
