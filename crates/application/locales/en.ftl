# The sentences the window shows that carry data, in English. The keys are the same in nb.ftl;
# a test renders every problem in both and fails when one is missing or left untranslated.
# Numbers and amounts arrive formatted for the language.

## Amount and price fields

amount-empty = enter an amount
amount-not-a-number = `{ $text }` is not a number
amount-negative = the amount cannot be negative
amount-zero = the amount must be more than zero
amount-too-many-decimals = { $unit } has at most { $max } decimals
amount-ambiguous = use one decimal separator: `{ $text }` is ambiguous
amount-fractional-sats = sats are whole numbers
amount-too-large = more than { $max } { $unit } is not an amount anyone can mean
amount-above-available = more than available ({ $available })
amount-below-one-sat = that is less than one sat
amount-no-price = no price yet to convert NOK
price-missing = enter a limit price
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
destination-bad-lightning-address = `{ $text }` is not a valid Lightning address (name@domain)
destination-bad-uri = the bitcoin: link is malformed: { $detail }
destination-unknown = not recognised: expected a bitcoin address, a Lightning invoice, a Lightning address or an LNURL

## The travel-rule recipient

recipient-name-missing = enter the recipient's full name
recipient-organisation-name-missing = enter the organisation's registered name
recipient-address-missing = enter the recipient's address
recipient-not-a-country = `{ $code }` is not a country code (ISO 3166-1, such as NO)
recipient-organisation-number-digits = an organisation number has 9 digits
recipient-national-id-digits = a Norwegian national identity number has 11 digits
