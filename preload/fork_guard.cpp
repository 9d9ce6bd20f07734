// SPDX-License-Identifier: LGPL-3.0-or-later
#include "preload/fork_guard.hpp"

namespace bigmul::preload {
namespace {

// Writer-preferring, so a stream of calls from other threads cannot keep
// fork() waiting; a thread never takes it twice (the interposer's
// re-entrancy guard), which that kind requires.
pthread_rwlock_t g_lock;

void init_lock() {
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&g_lock, &attr);
  pthread_rwlockattr_destroy(&attr);
}

void lock_for_fork() { pthread_rwlock_wrlock(&g_lock); }
void unlock_in_parent() { pthread_rwlock_unlock(&g_lock); }
// The child starts with a fresh lock: the copied one still counts the
// parent's waiting readers, threads the child does not have, and an unlock
// there can hand the lock to them, so the child's next call waits forever.
void fresh_in_child() { init_lock(); }

}  // namespace

void install_fork_handlers() {
  init_lock();
  pthread_atfork(lock_for_fork, unlock_in_parent, fresh_in_child);
}

call_scope::call_scope() { pthread_rwlock_rdlock(&g_lock); }
call_scope::~call_scope() { pthread_rwlock_unlock(&g_lock); }

}  // namespace bigmul::preload
