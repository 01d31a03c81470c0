# The sentences the window shows that carry data, in English. The keys are the same in nb.ftl;
# a test renders every problem in both and fails when one is missing or left untranslated.
# Numbers and amounts arrive formatted for the language.

## Amount and price fields

amount-empty = enter an amount
amount-not-a-number = “{ $text }” is not a number
amount-negative = the amount cannot be negative
amount-zero = the amount must be more than zero
amount-too-many-decimals = { $unit } has at most { $max } decimals
amount-ambiguous = “{ $text }” can be read two ways: write decimals with a point (12.50) and commas only between thousands (1,250)
amount-fractional-sats = sats are whole numbers
amount-too-large = more than { $max } { $unit } is not an amount anyone can mean
amount-above-available = more than available ({ $available })
amount-below-one-sat = that is less than one sat
amount-no-price = no price yet to convert NOK
price-missing = enter a limit price
price-zero = the limit price must be more than zero
order-far-from-market = the limit price is far from the market ({ $mid })

## Destinations

destination-empty = enter an address, invoice, Lightning address or LNURL
destination-bad-checksum = the address's checksum is wrong: a character is mistyped
destination-wrong-network = this address is for { $network }, not bitcoin mainnet
destination-bad-invoice = the Lightning invoice is damaged or cut off: { $detail }
destination-invoice-network = this Lightning invoice is for { $network }, not bitcoin mainnet
destination-expired = this Lightning invoice has expired
destination-absurd-expiry = this Lightning invoice says it is valid for { $seconds } seconds, more than a year: it is not a real invoice
destination-bad-lnurl = this LNURL is not valid bech32: { $detail }
destination-bad-lightning-address = “{ $text }” is not a valid Lightning address (name@domain)
destination-bad-uri = the bitcoin: link is malformed: { $detail }
destination-unknown = not recognised: expected a bitcoin address, a Lightning invoice, a Lightning address or an LNURL
destination-own-invoice = this is an invoice you created to receive: it is for the payer, not for you to pay
destination-already-paid = you have already paid this Lightning invoice: an invoice is paid once; ask the payee for a new one

## The travel-rule recipient

recipient-name-missing = enter the recipient's full name
recipient-organisation-name-missing = enter the organisation's registered name
recipient-address-missing = enter the recipient's address
recipient-not-a-country = “{ $code }” is not a country code (ISO 3166-1, such as NO)
recipient-organisation-number-digits = an organisation number has 9 digits
recipient-national-id-digits = a Norwegian national identity number has 11 digits

## Orders

order-not-ready = The order is not complete yet: check its amount and price.
order-placed = The order was placed.
order-not-placed = The order was not placed. Nothing was taken.
order-unknown = The outcome is not known yet. Do not send it again; Nordlys is checking { $what }.
unknown-in-flight = nothing yet: the request is still on its way
unknown-queued = nothing yet: it waits behind the plan's earlier steps
unknown-other-exchange = nothing: it was sent to the exchange at { $url }; connect to it to settle this
unknown-other-accounts = nothing: it was sent for other accounts; connect with the key it was sent with to settle this
unknown-doubt = open orders, the newest transactions and the balances at the exchange. So far: { $why }
doubt-moved-nok = your available NOK fell by { $amount }, as this would make it fall
doubt-moved-available = the available bitcoin of { $account } fell by { $amount }, as this would make it fall
doubt-moved-total = the bitcoin of { $account } fell by { $amount }, as this would make it fall
doubt-shared-match = a matching transaction could belong to another order or payment, or be part of a larger one
doubt-in-flight = the request may still be on its way
doubt-too-soon = no trace yet; Nordlys waits { $minutes } minutes before it takes silence as an answer
doubt-moved-before = an earlier check saw a balance move that only this could explain
doubt-limit-no-trace = a limit order cancelled since leaves no trace; check your history at the exchange
doubt-fills = transactions made while it was sent could be its fills, but do not add up to it
doubt-read-failed = a read from the exchange failed, so silence proves nothing
doubt-too-large = the balances the exchange reports are too large to add up, so silence proves nothing
doubt-no-balances-before = the balances before sending were not read, so silence proves nothing
doubt-held-back = { $held } is held back where open sells explain { $sells }: a payment may be on its way
doubt-row-disagrees = { $account } holds { $holds }, but its newest transaction says { $says }
doubt-changed-without-row = the balance of { $account } changed with no transaction listed
doubt-unaccounted = { $account } held { $was } when this was sent and holds { $holds }, which its listed transactions do not explain
order-placed-not-recorded = The order was placed. Nordlys could not record it locally ({ $reason }); it will be checked again.
order-market-buy = Market buy, { $amount }
order-market-sell = Market sell, { $amount }
order-limit-buy = Limit buy, { $amount }
order-limit-sell = Limit sell, { $amount }
cancel-may-be-unknown = An order whose outcome is unknown could be this one, and Nordlys has found no trace of it for a long time. Cancelling is safe for your money, but that order may then never be found. Cancel anyway?
cancel-still-checking = Nordlys is still checking an order whose answer was lost and could not reach the exchange just now. Try cancelling again in a moment.
cancel-failed = Could not cancel: { $reason }

## Payments

payment-price-moved = The price moved since you reviewed the payment; review it again.
payment-changed = The payment changed after you reviewed it; review it again.
payment-recipient-incomplete = complete the recipient's details
payment-sent = The payment was sent.
payment-sent-not-recorded = The payment was sent. Nordlys could not record it locally ({ $reason }); it will be checked again.
payment-recipient-not-saved = The recipient was not saved: { $reason }.
payment-found-sent = The answer was lost, but the payment is in the account: it was sent.
payment-not-sent = The payment was not sent. Nothing was taken.
payment-unknown = The outcome is not known yet. Do not send it again: Nordlys is checking the account.
payment-status-completed = Completed
payment-status-failed = Failed
payment-status-pending = Sent, waiting for the network to confirm
payment-status-unknown = Outcome unknown: Nordlys is checking the account. Do not send it again.
payment-status-not-sent = Not sent: nothing was taken
payment-status-refused = Refused: { $reason }
payment-completed-title = Payment completed
payment-failed-title = Payment failed

## Connections and settings

permission-trading = trading
permission-withdrawal = withdrawal
permission-receive = Receive
capability-oauth-cannot = { $what } needs an API key with that permission; OAuth access cannot do it
capability-key-lacks = this API key does not have the { $what } permission
capability-unknown-until-used = not known until first used: the exchange says whether this key may
feature-unknown-until-used = not known until first used: the exchange's answer tells
refusal-needs-key = needs an API key; OAuth access cannot be used for it
refusal-needs-secret = needs the API secret to sign; only the key is saved
refusal-key-lacks = needs an API key with the { $permission } permission; this key does not have it
refusal-missing-scope = needs an API key or the OAuth access “{ $scope }”, which was not granted
refusal-token-expired = needs new access: the sign-in has expired; connect again
refusal-other = cannot be done with these credentials
refusal-oauth-cannot = needs an API key with the { $permission } permission; OAuth access cannot do it
refusal-no-credentials = { $oauth ->
    [yes] needs an API key or OAuth access, and neither is connected
   *[no] needs an API key, and none is connected
}
secret-keyring-locked = The system keyring is locked or not running, so saved keys and sign-ins cannot be read. Unlock it (your desktop's "Passwords and Keys" or keyring prompt), then restart Nordlys.
secret-damaged = A saved key or sign-in was damaged and is not used. Disconnect to clear it, then connect again.
request-timeout-range = the request timeout must be { $min } to { $max } seconds
loopback-not-found-title = Not found
loopback-not-found-text = This address only takes the sign-in answer.
loopback-not-this-title = Not this sign-in
loopback-not-this-text = This answer does not belong to the sign-in Nordlys is waiting for. If you started one, finish it in the tab Nordlys opened.
loopback-connected-title = Connected
loopback-connected-text = You can close this tab and return to Nordlys.
loopback-not-connected = Not connected
loopback-declined-text = You declined. You can close this tab and return to Nordlys.
loopback-failed-text = Something went wrong. Return to Nordlys to see what happened.

## Receiving

invoice-unpaid = Waiting for payment
invoice-pending = Payment on its way
invoice-paid = Paid
invoice-expired = Expired
invoice-cancelled = Cancelled
invoice-any-amount = any amount
invoice-paid-title = Invoice paid
deposit-received-title = Bitcoin received
deposit-pending-title = Bitcoin on its way
deposit-body = { $amount } to { $account }
deposit-body-pending = { $amount } to { $account }, not final yet
deposits-while-closed-title = Received while Nordlys was closed
deposits-while-closed-body = { $count } deposits, { $total } in total:
deposits-more = and { $count } more

## Tax history

tax-kind-buy = Buy
tax-kind-sell = Sell
tax-kind-withdrawal = Withdrawal
tax-kind-deposit = Deposit
tax-kind-bonus = Bonus
tax-kind-nok-deposit = NOK deposit
tax-kind-nok-withdrawal = NOK withdrawal
tax-kind-btc-adjustment = BTC adjustment
tax-kind-nok-adjustment = NOK adjustment
tax-sub-market = market order
tax-sub-limit = limit order
tax-sub-manual = made by hand at the exchange
tax-sub-onchain = on-chain
tax-sub-lightning = Lightning
tax-sub-internal = between your accounts
tax-sub-internal-external = internal–external (the exchange does not say more)
tax-sub-lightning-invoice = Lightning invoice
tax-sub-lightning-address = Lightning address
tax-sub-lightning-lnurl = LNURL
tax-sub-bank = bank transfer
tax-sub-card = card
tax-sub-write-off = write-off
tax-sub-correction = correction
tax-not-computable = not computable: pending since { $since }
tax-not-computable-contradicted = not computable: the running balance of { $rows ->
    [one] one row
   *[other] { $rows } rows
} ({ $ids }) matches neither the account's nor the total the amounts add up to
tax-not-computable-overflow = not computable: the amounts are too large to add up
tax-account-deleted = { $name } (deleted)

## Gains and the year end

gains-not-computable-unknown = not computable: { $count ->
    [one] one disposal uses
   *[other] { $count } disposals use
} bitcoin whose cost is not known; enter the cost of each deposit from outside the exchange on the tax return card
gains-method-fifo = FIFO (first in, first out)
gains-method-average = average cost
gains-matched-by = Lots matched by { $method }.
gains-deposits-at-market = Deposits from outside the exchange ({ $count }) are taken at their market value when they arrived, as their purchase price is not known here.
gains-moved-out = Withdrawals not marked as payments ({ $count }) left the holding with their cost and no gain.
gains-sold-more = Disposals that sold more than the history shows was bought ({ $count }): that part is counted at zero cost.
gains-unpriced = No market rate on { $ids }: valued at zero.
gains-unknown-type = Transactions of unknown type { $kind } ({ $count }) are not counted.
rate-source-transaction = the market rate of your last transaction, on { $date }
rate-source-entered = Skatteetaten's rate, entered by you (NOK per BTC)
rate-source-entered-usd = Skatteetaten's rates, entered by you: { $usd } USD per BTC × { $nok } NOK per USD
rate-source-sample = Nordlys' own price sample at { $time } UTC (mid price)
rate-source-missing = no rate: enter one

## What a command could not do

no-such-account = There is no such bitcoin account.
no-such-recipient = There is no such saved recipient.
recipient-destination-fixed = A saved recipient stays bound to the destination it was saved for; save the other destination as its own recipient.
no-such-invoice = There is no invoice { $id } here.
no-such-profile = There is no profile { $id }.
no-such-journal-entry = There is no journal entry { $id }.
no-active-profile = No profile is chosen.
profile-form-wrong = The exchange's settings are not right.
profile-address-malformed = `{ $text }` is not a web address.
profile-address-scheme = The address must start with https (or http to 127.0.0.1 or [::1]), not `{ $scheme }`.
profile-address-insecure = Plain http is allowed only to this machine by address (127.0.0.1 or [::1]); use https for `{ $text }`.
profile-address-extra = The address must not carry a user name, password, query or fragment.
profile-address-path = Give the exchange's address alone, without a path (`{ $path }`): Nordlys adds the paths.
profile-operator-malformed = The abbreviation must be 1 to 16 lower-case letters or digits, as in `svc`.
profile-client-id-spaces = A client id has no spaces.
profile-scopes-none = Tick at least one kind of access.
profile-scope-unknown = `{ $scope }` is not a scope this exchange knows.
oauth-needs-client-id = This exchange has not issued Nordlys a client id for signing in through the browser yet. Connect with an API key instead.
choose-a-scope = Choose at least one of the known scopes.
sandbox-did-not-start = The sandbox did not start: { $reason }
sandbox-not-running = The sandbox is not running.
export-not-written = Could not write { $path }: { $reason }
invoice-unreadable = The exchange's invoice could not be read: { $reason }
created-invoice-amount = The exchange's invoice is for { $got }, not the { $asked } asked for; it is not shown.
created-invoice-no-amount = The exchange's invoice names no amount, but { $asked } was asked for; it is not shown.
created-invoice-unasked = The exchange's invoice is for { $got }, but one for any amount was asked for; it is not shown.
created-invoice-description = The exchange's invoice does not commit to the description given; it is not shown.
created-invoice-other = The exchange's invoice is not the one asked for; it is not shown.

order-same-as-unknown = The same order may already have been placed: its outcome is still unknown.
payment-same-as-unknown = The same payment may already have been sent: its outcome is still unknown.
payment-same-as-recent = You paid this { $ago } ago ({ $at }): the same amount, to the same place, from the same account. Pay it again?
settle-refused-placed = This order cannot be settled as not placed: the exchange shows it was placed.
settle-refused-sent = This payment cannot be settled as not sent: the exchange shows it was sent.
settle-refused-settled = This is settled already.
settle-refused-meanwhile = This was settled meanwhile.
settle-refused-in-flight = This may still be on its way to the exchange: wait until Nordlys has given up on it (at most { $minutes } minutes), then check again.
settle-refused-not-listed = Not settled: order { $order } is not among your open orders. Leave the order number empty if the order was filled or cancelled.
settle-refused-not-this-order = Not settled: order { $order } is another kind of order, goes the other way, or is older than this one.
settle-refused-claimed = Not settled: order { $order } already belongs to another order in doubt.
settle-placed-not-an-order = This is a payment: only an order can be settled as placed.

## Errors of the exchange and of connecting

error-refused = { $action } { $reason }.
action-deposit-destinations = Fetching deposit addresses
action-create-invoice = Creating Lightning invoices
action-get-invoice = Reading Lightning invoices
action-list-orders = Listing open orders
action-create-order = Placing orders
action-cancel-order = Cancelling orders
action-price = Reading the price
action-volume = Reading volume statistics
action-volume-historic = Reading historic volume
action-bitcoin-accounts = Reading the bitcoin accounts
action-fiat-account = Reading the NOK account
action-revoke-consent = Revoking an app's access
action-tax-balance = Reading tax balances
action-tax-transactions = Reading the tax history
action-create-withdrawal = Sending bitcoin
action-get-withdrawal = Reading payments
error-not-sent = Nordlys did not send the request: it is not valid ({ $detail }). Nothing was changed.
error-connect = Could not reach the exchange at { $url }. Check the internet connection and try again.
error-transport = The connection to the exchange broke. Try again.
error-timeout = The exchange did not answer within { $seconds } s. Try again.
error-outcome-unknown = The exchange's answer was lost, so the request may have been carried out. Check { $check ->
    [orders] the open orders and balances
   *[withdrawals] the payments and balances
} before trying again: sending it again could do it twice.
error-unauthenticated = The exchange did not accept the sign-in: { $message }
error-forbidden = The exchange does not allow this: { $message }
error-rate-limited = The exchange is limiting how often it is asked, and nothing was done. Try again in { $seconds } s.
error-rate-limited-later = The exchange is limiting how often it is asked, and nothing was done. Try again in a little while.
error-nonce-shared = The exchange refused this request's number (its nonce): another app seems to use the same API key, and nothing was done. Give each app its own key in the exchange's settings.
error-rejected = The exchange refused the request (HTTP { $status }): { $message }
error-server = The exchange failed (HTTP { $status }): { $message }. Try again later.
error-unreadable = The exchange's answer could not be read (at “{ $field }”). Try again later; if it goes on, Nordlys may need an update.
error-said = the exchange said: { $message }
error-other = Something went wrong: { $detail }
error-nonce-file = Nordlys cannot use its nonce file { $path }, so it sends no signed requests.
error-nonce-damaged = The nonce file { $path } is damaged. Signed requests stop rather than risk reusing a nonce; remove the file only if the API key has been replaced.
error-nonce-exhausted = The request counter (nonce) has run out. Create a new API key.
error-key-prefix = The API key must start with “{ $prefix }”.
error-key-empty = The API key has nothing after “{ $prefix }”.
error-key-characters = The API key contains spaces or control characters.
error-secret-prefix = The API secret must start with “{ $prefix }”.
error-secret-base64 = The API secret is not valid Base64 (its prefix included).
error-token-malformed = The access token is empty or contains spaces.
error-url-malformed = “{ $url }” is not a web address.
error-url-scheme = The exchange's address must use https (or http to 127.0.0.1 or [::1]), not “{ $url }”.
error-url-insecure = Plain http is allowed only to this machine by its address (127.0.0.1 or [::1]); use https for “{ $url }”.
error-url-extra = The exchange's address must not hold a user name, password, query or fragment.
error-oauth-rejected = The exchange refused the sign-in: { $description }
error-oauth-transport = Could not reach the exchange's sign-in service. Try again.
error-oauth-malformed = The sign-in service's answer could not be read. Try again later.
error-oauth-config = The sign-in settings are not valid: { $detail }
error-key-rejected = The exchange did not accept the key: { $reason }
error-browser = Could not open the web browser for the sign-in.
error-reconnect = The connection to the exchange was lost. Connect again.
error-sign-in-listen = Could not wait on this machine (127.0.0.1) for the sign-in's answer.
error-sign-in-timeout = There was no answer from the browser within { $seconds } seconds. Start again when you are ready.
error-sign-in-denied = You declined access in the browser.
error-sign-in-refused = The exchange refused the sign-in: { $reason }
error-sign-in-scope = The exchange will not grant the access asked for: { $reason }
error-sign-in-mismatch = The answer did not belong to this sign-in, so nothing was changed.
error-sign-in-no-code = The browser's answer held no authorization code.
sync-failed-exchange = { $reason } The { $stored } new rows before it are kept, and the next sync goes on from there.
sync-failed-store = The tax history could not be stored: { $detail }
sync-failed-interrupted = The sync stopped before its last page was stored. The next sync goes on from there.
sync-failed-other-accounts = The tax history kept for this profile belongs to other accounts ({ $history }) than this key sees ({ $here }), so nothing was added to it. Set it aside to start a fresh history for these accounts; the old one is kept and listed in Settings.

## Durations

duration-minutes = { $minutes } min
duration-hours = { $hours } h

## What a destination was recognised as

address-legacy = legacy
address-nested-segwit = nested segwit (P2SH)
address-segwit = native segwit
address-taproot = taproot
address-witness = witness
destination-onchain = Bitcoin address ({ $kind }), on-chain
destination-invoice = Lightning invoice for { $amount }, expires in { $expiry }
destination-lightning-address = Lightning address { $address }
destination-lnurl = LNURL payment to { $host }

## Confirmations

summary-amount = Amount
summary-value = Value
summary-to = To
summary-destination = Destination
summary-from = From
summary-recipient = Recipient
summary-marked-as = Marked as
summary-payment = payment
summary-fee = Fee
summary-fee-lightning = not stated by the exchange before sending; the routing fee is taken from the account and shows in your history afterwards
summary-fee-onchain = not stated by the exchange before sending; the network fee is taken from the account and shows in your history afterwards
## The confirmation outside the window (a native dialog)
confirm-payment-title = Nordlys: send { $amount }?
confirm-buy-title = Nordlys: place this buy order?
confirm-sell-title = Nordlys: place this sell order?
confirm-invoice = Lightning invoice to { $payee }, valid until { $expires }
confirm-price = Price
confirm-at-market = at the market price
confirm-send = Send
confirm-place = Place order
confirm-cancel = Cancel
confirm-plan-title = Nordlys: keep this recurring buy?
confirm-plan-buys = Buys
confirm-keep-plan = Keep plan
confirm-default-account = the exchange's default account
send-not-reviewed = This review can no longer be sent (it was sent, replaced or is more than 30 minutes old). Nothing was sent; review it again.
send-not-confirmed = Nothing was sent: the confirmation was cancelled.
send-no-dialog = Nothing was sent: Nordlys could not show its confirmation outside the window ({ $detail }).

order-summary-market-buy = Buy bitcoin for { $amount } at the market price (about { $estimate } before fees).
order-summary-market-sell = Sell { $amount } at the market price (about { $estimate } before fees).
order-summary-limit-buy = Place a limit order to buy bitcoin for { $amount } at { $price } per BTC or less. It stays open until filled or cancelled.
order-summary-limit-sell = Place a limit order to sell { $amount } at { $price } per BTC or more. It stays open until filled or cancelled.

## Charts

chart-collecting = Collecting prices – the chart fills in as Nordlys runs
chart-daily = Daily price, from the exchange's volume and your own trades
holdings-empty = No transactions yet: sync the tax history to see your holdings over time
holdings-total = All accounts
holdings-at-rate = Value at each transaction's market rate
holdings-at-sample = Value at Nordlys' price samples (mid)
holdings-gain = Gain realised
holdings-loss = Loss realised
holdings-pending = A transaction from { $time } is still pending: the figures from then on may change
holdings-contradicted = { $rows ->
    [one] one row
   *[other] { $rows } rows
} ({ $ids }) { $rows ->
    [one] carries
   *[other] carry
} a running balance that matches neither their account's balance nor the total the amounts add up to: the balances drawn come from the amounts
holdings-deleted-account = { $name } (deleted)
holdings-value-at-rate = Worth { $value } at { $rate } per BTC, the market rate of the transaction of { $time }
holdings-value-at-sample = Worth { $value } at { $rate } per BTC, Nordlys' price sample at { $time }
holdings-realised-gain = gain realised { $nok }
holdings-realised-loss = loss realised { $nok }
disposal-gain = gain { $nok }
disposal-loss = loss { $nok }
disposal-not-computable = gain or loss not computable
holdings-realised-unknown = sales whose gain is not computable: { $count }
chart-spread = Lowest bid to highest ask
chart-samples = Sampled by Nordlys
valued-at-bid = at the bid, { $price }, { $time }
estimate-at-ask = at the ask, { $price }, { $time }
estimate-at-limit = at your limit price
chart-no-volume = No volume in this period

## The tax return's card: why a figure is not computable, and how to fix it

card-why-no-rate = no source of the year-end rate is chosen for { $year }
card-fix-no-rate = enter Skatteetaten's rate for 1 January { $next }, or choose the last market rate in your history or Nordlys' own price sample
card-why-no-transaction-rate = no transaction up to the end of { $year } carries a market rate
card-fix-no-transaction-rate = enter Skatteetaten's rate for 1 January { $next }
card-why-no-sample = Nordlys took no price sample within 10 minutes of midnight in Oslo on 31 December { $year }
card-fix-no-sample = enter Skatteetaten's rate for 1 January { $next }, or choose the last market rate in your history
card-why-rate-out-of-range = the entered USD rates multiply past what Nordlys can count
card-fix-rate-out-of-range = check the two rates against Skatteetaten's table
card-why-pending = the transaction of { $time } is still pending at the exchange
card-fix-pending = sync again once the exchange has settled it
card-why-unknown-type = transaction { $id } is of a kind this version does not know ({ $kind })
card-fix-unknown-type = update Nordlys; it will not guess what the transaction did
card-why-malformed = transaction { $id } could not be read ({ $reason })
card-fix-malformed = sync again; if it stays unreadable, report it to the exchange
card-why-oversold = the sale of { $time } sold { $btc } more than the history shows was bought
card-fix-oversold = sync the whole history, or enter the cost of bitcoin that came from outside the exchange
card-why-balance-contradicted = the running balance of row { $ids } is neither the account's balance nor the total that the rows' amounts add up to, so the holding cannot be told from this history
card-fix-balance-contradicted = sync again once rows still pending or listed late have arrived; if it stays, ask the exchange about { $ids }
card-why-amounts-overflow = the history's amounts are too large to add up
card-fix-amounts-overflow = sync the history again; if it stays, ask the exchange what these rows are
card-why-deposit-cost = bitcoin sold or paid on { $time } came from a deposit from outside the exchange on { $deposited }, whose cost is not known
card-fix-deposit-cost = enter the acquisition date and NOK cost of the deposit of { $deposited } under “Deposits from outside the exchange”
card-why-no-row-rate = the transaction of { $time } has no market rate to value it at
card-fix-no-row-rate = ask the exchange for its value; Nordlys will not guess it
card-why-fee = the trade of { $time } does not show whether its fee is inside its amount
card-fix-fee = check the trade on the exchange's website; Nordlys will not guess where the fee is

## The tax return's card in the window, and its attachment
card-nothing-synced = No tax history is stored yet: sync it first, then open the card.
card-year-outside = { $year } is outside the synced history, which runs from { $first } to { $last }.
card-field-landkode = Country
card-field-navn = Name of the virtual asset
card-field-kontonummer = Account number
card-field-antall = Number of units
card-field-formuesverdi = Wealth value
card-field-gevinst = Taxable gain on realisation
card-field-tap = Deductible loss on realisation
card-field-annen = Other taxable capital income
card-field-boersnavn = Exchange
card-xml-left-out = Left out of the file because they are not computable: { $fields }. Fill them in on the tax return yourself, or fix the cause and export again.
deposit-cost-bad-date = “{ $date }” is not a date: write it as 2021-03-04.
deposit-cost-future = { $date } has not come yet: a deposit's bitcoin was acquired before it arrived.
attachment-title = Attachment to the tax return: virtual assets, income year { $year }
attachment-final = The income year has ended.
attachment-so-far = The income year has not ended: the figures are as of now.
attachment-method = Method: { $method }
attachment-rule-set = Rule set: { $version }
attachment-rows = Rows used: { $count }; SHA-256 over their JSON as the exchange sent it, one per line: { $hash }
attachment-rate = Year-end rate: { $rate } ({ $source })
attachment-no-rate = Year-end rate: none chosen
attachment-exchange = Exchange: { $name }
attachment-not-computable = not computable: { $reason }; { $fix }
attachment-figures = Figures as filed (whole kroner), exact in brackets
attachment-disposals = Disposals and the lots they consumed (proceeds - cost = gain)
attachment-income = Bonuses (other capital income), at the market rate when received
attachment-deposits = Deposits from outside the exchange
attachment-not-entered = cost not entered
attachment-entered = entered by the user: acquired { $date }, cost { $cost }
attachment-rows-title = Rows from the exchange, as sent, in stored order
tax-rate-range = “{ $typed }” is not a tax rate: enter a percentage from 0 to 100, such as 22.
sale-tax-not-synced = the tax history is not synced
sale-tax-sync = sync it on the Tax screen to see what this sale would cost in tax
sale-tax-gain = Gain { $amount } by { $method }
sale-tax-loss = Loss { $amount } by { $method }
sale-tax-tax = Tax at { $percent } %: { $amount }
sale-tax-reduction = Tax reduced at { $percent } %: { $amount }

## Price alerts

alert-watched-mid = The mid price
alert-watched-bank-buy = The bank price to buy for { $usual }
alert-watched-bank-sell = The bank price to sell for { $usual }
alert-watched-card-buy = The card price to buy for { $usual }
alert-watched-card-sell = The card price to sell for { $usual }
alert-watched-spread = The spread (ask − bid)
alert-rises-above = { $what } rises above { $level }
alert-falls-below = { $what } falls below { $level }
alert-fired-title = Price alert
alert-fired-body = { $said }: now { $value }
alert-level-problem = The level: { $problem }
alert-hysteresis-range = The move back before it alerts again is more than 0 % and at most 10 % of the level.
alert-gone = This alert was removed meanwhile.
alert-distance-range = The distance is more than 0 % and at most 50 % of the market.
alert-watched-open-order = My nearest open limit order placed in Nordlys
alert-comes-within = { $what } comes within { $level } of the market
alert-percent = { $percent } %
alert-open-order-needs-key = Alerts on open orders need an API key: the exchange lists open orders to no app connected with OAuth.
usual-amount-problem = The usual amount: { $problem }

## The local store, encrypted at rest

store-key-missing = Your local data at { $path } is encrypted, and the system keyring holds no key for it. Restore the keyring entry, or put back the key you backed up (nordlys-cli store import-key); or move the file aside to start a fresh store. Without the key, the journal's evidence for payments whose outcome is unknown is lost.
store-key-wrong = Your local data at { $path } does not open with the key in the system keyring. Put back the key you backed up (nordlys-cli store import-key), or move the file aside to start a fresh store.
store-key-damaged = The system keyring's entry for your local data's key is damaged. Put back the key you backed up (nordlys-cli store import-key).
store-key-not-kept = The system keyring did not keep the new key for your local data, so nothing was encrypted with it. Check that the keyring is unlocked and has room, then restart Nordlys.
store-key-sealed = Your local data's key is sealed under the lock's password, and Nordlys has not been unlocked since it started. Unlock Nordlys to open your data. The command line (nordlys-cli) cannot open it: its scheduled buys for this profile stop until you turn the seal off in Settings.
store-seal-needs-lock = Set a lock first: the key is sealed under the lock's password.
store-key-not-a-key = That is not a key: a key is 64 hexadecimal digits (0–9, a–f), in groups of four or not.
store-key-does-not-open = This key does not open your local data. Nothing was changed.
store-opens = Your local data opens: there is nothing to mend.
store-in-use = Your local data is open in another Nordlys program (the command-line tool?). Close it, then try again: the data is encrypted once nothing else has it open.

## The app lock

locked-notice-title = Nordlys (locked)
locked-notice-body = Something happened. Unlock Nordlys to see it.
app-locked = Nordlys is locked. Unlock it to see this.
lock-keyring-unreadable = Nordlys stays locked: the system keyring, which holds the lock's password, could not be read ({ $detail }). Unlock the keyring (log in again), then try the password.
lock-password-short = The password needs at least 8 characters.
lock-password-mismatch = The two passwords differ.
lock-password-wrong = That is not the lock's password.
lock-password-missing = Enter the lock's password.
lock-idle-range = The idle time is a whole number of minutes from 1 to 240.
lock-payment-password = Enter the lock's password to send this payment.
lock-password-to-weaken = Enter the lock's password to weaken the lock (a longer idle time, or payments without the password).
lock-password-for-change = Enter the lock's password to make this change: a new or larger recurring buy, or another exchange address.
lock-password-for-key = Enter the lock's password to see your data's key.
lock-password-for-seal = Enter the lock's password to change how your data's key is kept.

## The tray

tray-open = Open Nordlys
tray-privacy = Hide or show amounts
tray-lock = Lock
tray-quit = Quit Nordlys
tray-locked = Nordlys (locked)
autostart-unavailable = Nordlys cannot start itself at login on this system yet.
weekday-mon = Monday
weekday-tue = Tuesday
weekday-wed = Wednesday
weekday-thu = Thursday
weekday-fri = Friday
weekday-sat = Saturday
weekday-sun = Sunday
plan-said-day = Buy for { $amount } every day at { $at }
plan-said-week = Buy for { $amount } every { $weekday } at { $at }
plan-said-month = Buy for { $amount } on day { $day } of every month at { $at }
plan-said-capped = { $said }, unless the price is above { $cap }
plan-skip-above-cap = Skipped: the ask, { $ask }, was above your cap of { $cap }
plan-skip-rung-at-zero = Skipped: at an ask of { $ask } the ladder's lowest step would be priced at 0 NOK
plan-run-missed = Missed: Nordlys was not running while it was due
plan-run-held = Held: an earlier run's outcome is not known yet
plan-run-order = Order { $order } (journal entry { $entry })
plan-run-entry = Journal entry { $entry }
plan-run-refused = Refused: { $reason } (journal entry { $entry })
plan-amount-positive = The amount must be more than 0 NOK
plan-cap-positive = The price cap must be more than 0 NOK
plan-time = Write the time as HH:MM, 00:00 to 23:59
plan-weekday = Choose a weekday
plan-month-day = Choose a day of the month from 1 to 31
plan-gone = That plan no longer exists
plan-above-available = Saved, but this is more than the { $available } available now: runs will be refused until there is enough
plan-notice-title = Recurring buy
plan-placed = A recurring buy was placed
plan-rejected = The exchange refused a recurring buy; the plan goes on at its next time
plan-unknown = A recurring buy may or may not have been placed; Nordlys is checking, and the plan waits until it knows
plan-elsewhere = Recurring buy { $plan } was made for other accounts than this profile's key sees, so it was not run
plans-of-inactive-profile = The profile { $profile } has { $count } recurring buys that do not run while another profile is in use; switch to it to run them.
tray-next-buy = Next recurring buy: { $at } (Oslo time)
plan-said-ladder = { $said }, as { $rungs } limit buys { $step } % apart below the ask
plan-run-rungs = { $rungs } limit buys placed below the ask
plan-rungs = A ladder has 2 to 50 rungs
plan-step = The step is a percentage above 0 and below 50
plan-ladder-too-deep = { $rungs } rungs { $step } % apart would reach a price of 0; use fewer rungs or a smaller step
plan-rung-too-small = Split over { $rungs } rungs, each would buy for less than 0.01 NOK
plan-ladder-placed = A ladder of limit buys was placed
account-reserved = { $btc } reserved by open sells or a payment on its way
notice-settings-set-aside = Your settings could not be read ({ $detail }). They were kept as { $aside }, and the defaults are in use.
notice-settings-not-set-aside = Your settings could not be read ({ $detail }), and could not be kept aside ({ $why }). The defaults are in use.
notice-settings-unreadable = Your settings could not be read ({ $detail }). The defaults are in use until you change a setting.
notice-sample-not-kept = A price sample could not be kept in the local database ({ $detail }).
unresolved-other-accounts = Orders or payments still unknown: { $count }, sent from other accounts than this key sees. This key cannot check them; they stay unknown until a key of their own accounts is used, and are never sent again.

## A check's steps on the In doubt screen: what was read, and what it saw
read-accounts = Bitcoin balances
read-fiat = NOK balance
read-open-orders = Open orders
read-rows = History
read-place-order = The order's answer
read-send-withdrawal = The payment's answer
read-verdict = Conclusion
read-user = You
read-queue = Queue
seen-account = { $account }: { $available } available, { $total } in all
seen-fiat = { $amount } available
seen-open-orders = open orders: { $count }
seen-rows = rows since it was sent: { $count }
seen-rows-incomplete = rows since it was sent: { $count }, though not all could be read ({ $error })
seen-failed = the read failed ({ $error })
seen-answered = the exchange answered with an error ({ $error })
trouble-timeout = no answer within { $seconds } s
trouble-unreachable = no connection to the exchange could be made
trouble-connection-broke = the connection broke before the answer came
trouble-answer-lost = the answer was lost on the way
trouble-status = the exchange answered HTTP { $status }: { $message }
trouble-rate-limited = the exchange is limiting how often it is asked
trouble-not-permitted = these credentials may not read it
trouble-unreadable = the answer could not be read
trouble-unreadable-rows = { $count ->
    [one] one row could not be read
   *[other] { $count } rows could not be read
}
seen-made = made: the exchange lists it as { $ids }
seen-not-made = not made: { $minutes } minutes of quiet showed nothing that could be it, and the balances are explained
seen-unknown = not known yet: { $why }
seen-user-not-placed = you checked the exchange's history: not placed
seen-user-not-sent = you checked the exchange's history: not sent
seen-user-placed-open = you saw it on the exchange: placed, open as order { $order }
seen-user-placed-closed = you saw it on the exchange: placed, and closed
seen-never-sent = never sent: its plan's run stopped before this rung's turn
