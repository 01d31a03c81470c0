//! Price alerts as the user made them, with whether each is armed: a restart neither fires an
//! alert again nor forgets one that waits to re-arm.

use rusqlite::params;

use super::{StoreError, StoredDecimal};
use crate::alerts::{Alert, Crossing, Level, NewAlert, Watched};

/// An alert's columns as kept: what it watches, which way, its level and hysteresis.
fn stored(a: &NewAlert) -> (&'static str, &'static str, String, String) {
    let crossing = match a.crossing {
        Crossing::RisesAbove => "rises-above",
        Crossing::FallsBelow => "falls-below",
    };
    (
        a.watched.as_str(),
        crossing,
        a.level.decimal().normalize().to_string(),
        a.hysteresis_percent.decimal().normalize().to_string(),
    )
}

impl super::Alerts<'_> {
    /// Keeps a new alert, armed or waiting to re-arm; returns its id.
    pub fn add(&self, a: &NewAlert, armed: bool) -> Result<i64, StoreError> {
        let (watched, crossing, level, hysteresis) = stored(a);
        let db = self.db();
        db.execute(
            "INSERT INTO price_alerts (watched, crossing, level, hysteresis, armed)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![watched, crossing, level, hysteresis, armed],
        )?;
        Ok(db.last_insert_rowid())
    }

    /// Replaces alert `id` with `a`; `false` when there is no such alert.
    pub fn edit(&self, id: i64, a: &NewAlert, armed: bool) -> Result<bool, StoreError> {
        let (watched, crossing, level, hysteresis) = stored(a);
        let changed = self.db().execute(
            "UPDATE price_alerts SET watched = ?2, crossing = ?3, level = ?4, hysteresis = ?5,
             armed = ?6 WHERE id = ?1",
            params![id, watched, crossing, level, hysteresis, armed],
        )?;
        Ok(changed == 1)
    }

    pub fn set_armed(&self, id: i64, armed: bool) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE price_alerts SET armed = ?2 WHERE id = ?1",
            params![id, armed],
        )?;
        Ok(())
    }

    pub fn remove(&self, id: i64) -> Result<(), StoreError> {
        self.db()
            .execute("DELETE FROM price_alerts WHERE id = ?1", [id])?;
        Ok(())
    }

    /// Every alert, oldest first. A row this version cannot read (written by a newer one) is left
    /// out rather than guessed at.
    pub fn all(&self) -> Result<Vec<Alert>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT id, watched, crossing, level, hysteresis, armed FROM price_alerts ORDER BY id",
        )?;
        let rows = q.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, StoredDecimal>(3)?.0,
                r.get::<_, StoredDecimal>(4)?.0,
                r.get::<_, bool>(5)?,
            ))
        })?;
        let mut out = vec![];
        for row in rows {
            let (id, watched, crossing, level, hysteresis_percent, armed) = row?;
            let crossing = match crossing.as_str() {
                "rises-above" => Crossing::RisesAbove,
                "falls-below" => Crossing::FallsBelow,
                _ => continue,
            };
            let Some(watched) = Watched::from_stored(&watched) else {
                continue;
            };
            out.push(Alert {
                id,
                watched,
                crossing,
                level: Level::of(watched, level),
                hysteresis_percent: nordlys_money::Percent::new(hysteresis_percent),
                armed,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// Rows as 8982fdb7 wrote them (each level a bare decimal whose meaning its `watched` gives)
    /// read as the same typed levels: a price, the spread in kroner, a distance in percent.
    #[test]
    fn alerts_written_before_levels_were_typed_read_unchanged() {
        let store = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        for (watched, level) in [
            ("mid", "750000.25"),
            ("spread", "1200"),
            ("open-order", "2.5"),
        ] {
            store
                .db()
                .execute(
                    "INSERT INTO price_alerts (watched, crossing, level, hysteresis, armed)
                     VALUES (?1, 'falls-below', ?2, '0.5', 1)",
                    params![watched, level],
                )
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let d = |s: &str| s.parse::<rust_decimal::Decimal>().unwrap_or_default();
        let levels: Vec<Level> = store
            .alerts()
            .all()
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(|a| a.level)
            .collect();
        assert_eq!(
            levels,
            [
                Level::Price(nordlys_money::NokPerBtc::computed(d("750000.25"))),
                Level::Spread(nordlys_money::Nok::computed(d("1200"))),
                Level::Percent(nordlys_money::Percent::new(d("2.5"))),
            ]
        );
    }

    #[test]
    fn an_alert_keeps_its_level_and_state_across_an_edit_and_is_gone_once_removed() {
        let store = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        let new = NewAlert {
            watched: Watched::CardSell,
            crossing: Crossing::FallsBelow,
            level: Level::of(Watched::CardSell, "750000.25".parse().unwrap_or_default()),
            hysteresis_percent: nordlys_money::Percent::new("1.5".parse().unwrap_or_default()),
        };
        let id = store
            .alerts()
            .add(&new, true)
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .alerts()
            .set_armed(id, false)
            .unwrap_or_else(|e| panic!("{e}"));
        let kept = store.alerts().all().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            kept,
            [Alert {
                id,
                watched: new.watched,
                crossing: new.crossing,
                level: new.level,
                hysteresis_percent: new.hysteresis_percent,
                armed: false,
            }]
        );
        let edited = NewAlert {
            crossing: Crossing::RisesAbove,
            ..new.clone()
        };
        assert!(store.alerts().edit(id, &edited, true).unwrap_or(false));
        assert!(!store.alerts().edit(id + 1, &edited, true).unwrap_or(true));
        let kept = store.alerts().all().unwrap_or_default();
        assert_eq!(kept[0].crossing, Crossing::RisesAbove);
        assert!(kept[0].armed);
        store.alerts().remove(id).unwrap_or_else(|e| panic!("{e}"));
        assert!(store.alerts().all().unwrap_or_default().is_empty());
    }
}
