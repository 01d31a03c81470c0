//! Tax transaction listing (4.1): the query, checked before sending, and a walk over every page.

use chrono::{DateTime, Utc};
use futures_util::Stream;

use crate::client::ExchangeClient;
use crate::error::{Error, InvalidRequest};
use crate::models::{ListTaxTransactionsResponse, TaxPage};
use crate::wire::format_time;

/// The largest page the server serves (8).
pub const MAX_PAGE_SIZE: u32 = 200;

/// `pageSize` is always sent: a gRPC server reads its absence as 0, i.e. "everything".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxQuery {
    /// 1–200, or 0 for every matching transaction in one answer.
    pub page_size: u32,
    pub after: Option<DateTime<Utc>>,
    /// Tie-breaker among transactions created at `after`; needs `after`.
    pub after_id: Option<String>,
    /// Only transactions created strictly before this.
    pub before: Option<DateTime<Utc>>,
}

impl TaxQuery {
    pub fn new(page_size: u32) -> Self {
        Self {
            page_size,
            after: None,
            after_id: None,
            before: None,
        }
    }

    pub fn validate(&self) -> Result<(), InvalidRequest> {
        if self.page_size > MAX_PAGE_SIZE {
            return Err(InvalidRequest::PageSize(self.page_size));
        }
        if self.after_id.as_deref().is_some_and(|a| !a.is_empty()) && self.after.is_none() {
            return Err(InvalidRequest::AfterIdWithoutAfter);
        }
        Ok(())
    }

    pub(crate) fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("pageSize", self.page_size.to_string())];
        if let Some(a) = &self.after {
            pairs.push(("after", format_time(a)));
        }
        if let Some(id) = self.after_id.as_deref().filter(|s| !s.is_empty()) {
            pairs.push(("afterId", id.to_owned()));
        }
        if let Some(b) = &self.before {
            pairs.push(("before", format_time(b)));
        }
        pairs
    }

    /// The query for the page after `page`, or `None` when `page` was the last.
    pub fn next_page(&self, page: &ListTaxTransactionsResponse) -> Result<Option<Self>, Error> {
        self.after_page(
            page.has_more,
            page.transactions.len(),
            page.next_after,
            &page.next_after_id,
        )
    }

    /// The query for the page after a [`TaxPage`], or `None` when it was the last.
    pub fn after_tax_page(&self, page: &TaxPage) -> Result<Option<Self>, Error> {
        self.after_page(
            page.has_more,
            page.transactions.len(),
            page.next_after,
            &page.next_after_id,
        )
    }

    fn after_page(
        &self,
        has_more: bool,
        rows: usize,
        next_after: Option<DateTime<Utc>>,
        next_after_id: &str,
    ) -> Result<Option<Self>, Error> {
        if !has_more || self.page_size == 0 {
            return Ok(None);
        }
        let stuck = || Error::Decode {
            endpoint: crate::endpoint::Endpoint::TaxTransactions.name(),
            field: "nextAfter".into(),
            reason: "hasMore is true but the cursor does not move forward".into(),
        };
        let after = next_after.ok_or_else(stuck)?;
        let after_id = Some(next_after_id.to_owned()).filter(|s| !s.is_empty());
        if rows == 0 || (Some(after) == self.after && after_id == self.after_id) {
            return Err(stuck());
        }
        Ok(Some(Self {
            after: Some(after),
            after_id,
            ..self.clone()
        }))
    }
}

impl ExchangeClient {
    /// Every page from `query` on, oldest first, walking `nextAfter`/`nextAfterId` while `hasMore`.
    pub fn tax_transaction_pages(
        &self,
        query: TaxQuery,
    ) -> impl Stream<Item = Result<ListTaxTransactionsResponse, Error>> + Send + '_ {
        futures_util::stream::try_unfold(Some(query), move |state| async move {
            let Some(q) = state else { return Ok(None) };
            let page = self.tax_transactions(&q).await?;
            let next = q.next_page(&page)?;
            Ok(Some((page, next)))
        })
    }

    /// Every transaction from `query` on, as one response with `hasMore` false.
    pub async fn all_tax_transactions(
        &self,
        query: TaxQuery,
    ) -> Result<ListTaxTransactionsResponse, Error> {
        use futures_util::TryStreamExt;
        let start = (query.after, query.after_id.clone().unwrap_or_default());
        let pages = self.tax_transaction_pages(query);
        futures_util::pin_mut!(pages);
        let mut all = ListTaxTransactionsResponse {
            transactions: vec![],
            has_more: false,
            next_after: start.0,
            next_after_id: start.1,
        };
        while let Some(page) = pages.try_next().await? {
            all.transactions.extend(page.transactions);
            all.next_after = page.next_after.or(all.next_after);
            if !page.next_after_id.is_empty() {
                all.next_after_id = page.next_after_id;
            }
        }
        Ok(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_size_and_after_id_are_checked_locally() {
        assert_eq!(
            TaxQuery::new(201).validate(),
            Err(InvalidRequest::PageSize(201))
        );
        assert!(TaxQuery::new(200).validate().is_ok());
        assert!(TaxQuery::new(0).validate().is_ok());
        let q = TaxQuery {
            after_id: Some("de_1".into()),
            ..TaxQuery::new(7)
        };
        assert_eq!(q.validate(), Err(InvalidRequest::AfterIdWithoutAfter));
    }

    #[test]
    fn page_size_is_always_sent() {
        assert_eq!(
            TaxQuery::new(0).to_pairs(),
            vec![("pageSize", "0".to_owned())]
        );
    }
}
