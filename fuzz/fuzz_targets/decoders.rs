//! Whatever the exchange answers, through every response decoder of the client and the error
//! body reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nordlys_exchange::ApiError;
use nordlys_exchange::models::*;

fn decode<T: serde::de::DeserializeOwned>(data: &[u8]) {
    let _ = serde_json::from_slice::<T>(data);
}

fuzz_target!(|data: &[u8]| {
    decode::<ListBitcoinAccountsResponse>(data);
    decode::<GetFiatAccountResponse>(data);
    decode::<DepositDestinationsResponse>(data);
    decode::<NewLightningInvoiceResponse>(data);
    decode::<GetLightningInvoiceResponse>(data);
    decode::<OpenOrdersResponse>(data);
    decode::<NewOrderResponse>(data);
    decode::<PriceResponse>(data);
    decode::<VolumeResponse>(data);
    decode::<VolumeHistoricResponse>(data);
    decode::<GetTaxBalanceResponse>(data);
    decode::<ListTaxTransactionsResponse>(data);
    decode::<SendBitcoinResponse>(data);
    decode::<GetBitcoinWithdrawalResponse>(data);
    if let Ok(page) = serde_json::from_slice::<TaxPage>(data) {
        let _ = page.rows();
        let _ = page.create_time(true);
    }
    let _ = ApiError::from_body(data);
});
