# Setningene vinduet viser som bærer data, på norsk bokmål. Nøklene er de samme som i en.ftl.
# Tall og beløp kommer ferdig formatert for språket.

## Beløps- og prisfelt

amount-empty = skriv et beløp
amount-not-a-number = «{ $text }» er ikke et tall
amount-negative = beløpet kan ikke være negativt
amount-zero = beløpet må være mer enn null
amount-too-many-decimals = { $unit } har høyst { $max } desimaler
amount-ambiguous = bruk ett desimaltegn: «{ $text }» kan leses på to måter
amount-fractional-sats = sats er hele tall
amount-too-large = mer enn { $max } { $unit } er ikke et beløp noen kan mene
amount-above-available = mer enn tilgjengelig ({ $available })
amount-below-one-sat = det er mindre enn én sat
amount-no-price = ingen kurs ennå å regne om NOK med
price-missing = oppgi en grensepris
order-far-from-market = grenseprisen er langt fra markedet ({ $mid })

## Mottakere

destination-empty = skriv en adresse, faktura, Lightning-adresse eller LNURL
destination-bad-checksum = adressens kontrollsum stemmer ikke: et tegn er skrevet feil
destination-wrong-network = denne adressen er for { $network }, ikke bitcoins hovednett
destination-bad-invoice = Lightning-fakturaen er skadet eller avkortet: { $detail }
destination-invoice-network = denne Lightning-fakturaen er for { $network }, ikke bitcoins hovednett
destination-expired = denne Lightning-fakturaen har utløpt
destination-absurd-expiry = denne Lightning-fakturaen sier at den gjelder i { $seconds } sekunder, mer enn et år: det er ikke en ekte faktura
destination-bad-lnurl = denne LNURL-en er ikke gyldig bech32: { $detail }
destination-bad-lightning-address = «{ $text }» er ikke en gyldig Lightning-adresse (navn@domene)
destination-bad-uri = bitcoin:-lenken er feilformet: { $detail }
destination-unknown = ikke gjenkjent: ventet en bitcoinadresse, en Lightning-faktura, en Lightning-adresse eller en LNURL

## Mottakeren etter reiseregelen

recipient-name-missing = skriv mottakerens fulle navn
recipient-organisation-name-missing = skriv organisasjonens registrerte navn
recipient-address-missing = skriv mottakerens adresse
recipient-not-a-country = «{ $code }» er ikke en landkode (ISO 3166-1, f.eks. NO)
recipient-organisation-number-digits = et organisasjonsnummer har 9 sifre
recipient-national-id-digits = et norsk fødselsnummer har 11 sifre
