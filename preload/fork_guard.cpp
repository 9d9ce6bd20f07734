// SPDX-License-Identifier: LGPL-3.0-or-later
#include "preload/fork_guard.hpp"

namespace bigmul::preload {
namespace {

// Writer-preferring, so a stream of calls from other threads cannot keep
// fork() waiting; a thread never takes it twice (the interposer's
// re-entrancy guard), which that kind requires.
pthread_rwlock_t g_lock;

void lock_for_fork() { pthread_rwlock_wrlock(&g_lock); }
void unlock_after_fork() { pthread_rwlock_unlock(&g_lock); }

}  // namespace

void install_fork_handlers() {
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&g_lock, &attr);
  pthread_rwlockattr_destroy(&attr);
  pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

call_scope::call_scope() { pthread_rwlock_rdlock(&g_lock); }
call_scope::~call_scope() { pthread_rwlock_unlock(&g_lock); }

}  // namespace bigmul::preload
