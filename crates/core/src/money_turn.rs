//! The turn to move money. Placing an order, sending a withdrawal and running the plans take a
//! [`MoneyTurn`] as a parameter, so a path that moves money without holding its turn does not
//! compile. The app's turn keeps a profile switch out until the money command ends; the CLI and
//! tests take the store's own.

use std::sync::Arc;

use tokio::sync::{OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock};

/// Money commands run side by side, each on its turn; what must not happen while one runs
/// (a profile switch) waits [`MoneyLock::alone`].
#[derive(Debug, Default, Clone)]
pub struct MoneyLock(Arc<RwLock<()>>);

/// Held while money moves; dropping it ends the turn.
#[derive(Debug)]
pub struct MoneyTurn {
    _held: OwnedRwLockReadGuard<()>,
}

/// Held while no money may move.
#[derive(Debug)]
pub struct Alone {
    _held: OwnedRwLockWriteGuard<()>,
}

impl MoneyLock {
    /// Waits while something holds the lock [`alone`](Self::alone), then takes a turn.
    pub async fn turn(&self) -> MoneyTurn {
        MoneyTurn {
            _held: Arc::clone(&self.0).read_owned().await,
        }
    }

    /// Waits for every turn to end, and keeps new ones out until dropped.
    pub async fn alone(&self) -> Alone {
        Alone {
            _held: Arc::clone(&self.0).write_owned().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Turns run side by side; being alone waits for them, and a new turn waits for it.
    #[tokio::test]
    async fn turns_share_and_alone_waits_for_every_turn() {
        let lock = MoneyLock::default();
        let one = lock.turn().await;
        let _two = lock.turn().await;
        let waiting = {
            let lock = lock.clone();
            tokio::spawn(async move { lock.alone().await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "alone while turns run");
        drop(one);
        drop(_two);
        let alone = waiting.await.unwrap();
        let later = {
            let lock = lock.clone();
            tokio::spawn(async move { lock.turn().await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!later.is_finished(), "a turn while alone");
        drop(alone);
        later.await.unwrap();
    }
}
