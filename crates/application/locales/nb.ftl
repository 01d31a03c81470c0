# Setningene vinduet viser som bærer data, på norsk bokmål. Nøklene er de samme som i en.ftl.
# Tall og beløp kommer ferdig formatert for språket.

## Beløps- og prisfelt

amount-empty = skriv et beløp
amount-not-a-number = «{ $text }» er ikke et tall
amount-negative = beløpet kan ikke være negativt
amount-zero = beløpet må være mer enn null
amount-too-many-decimals = { $unit } har høyst { $max } desimaler
amount-ambiguous = «{ $text }» kan leses på to måter: skriv desimaler med komma (12,50) og mellomrom mellom tusener (1 250)
amount-fractional-sats = sats er hele tall
amount-too-large = mer enn { $max } { $unit } er ikke et beløp noen kan mene
amount-above-available = mer enn tilgjengelig ({ $available })
amount-below-one-sat = det er mindre enn én sat
amount-no-price = ingen kurs ennå å regne om NOK med
price-missing = oppgi en grensepris
price-zero = grenseprisen må være mer enn null
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
destination-own-invoice = dette er en faktura du laget for å motta: den er til den som skal betale, ikke til deg
destination-already-paid = du har allerede betalt denne Lightning-fakturaen: en faktura betales én gang; be mottakeren om en ny

## Mottakeren etter reiseregelen

recipient-name-missing = skriv mottakerens fulle navn
recipient-organisation-name-missing = skriv organisasjonens registrerte navn
recipient-address-missing = skriv mottakerens adresse
recipient-not-a-country = «{ $code }» er ikke en landkode (ISO 3166-1, f.eks. NO)
recipient-organisation-number-digits = et organisasjonsnummer har 9 sifre
recipient-national-id-digits = et norsk fødselsnummer har 11 sifre

## Ordrer

order-not-ready = Ordren er ikke fullstendig ennå: sjekk beløpet og prisen.
order-placed = Ordren ble lagt inn.
order-not-placed = Ordren ble ikke lagt inn. Ingenting ble trukket.
order-unknown = Utfallet er ukjent ennå. Send ikke ordren på nytt; Nordlys sjekker { $what }.
unknown-in-flight = ingenting ennå: forespørselen er fortsatt underveis
unknown-queued = ingenting ennå: den venter bak planens tidligere trinn
unknown-other-exchange = ingenting: den ble sendt til børsen på { $url }; koble til den for å avklare dette
unknown-other-accounts = ingenting: den ble sendt for andre kontoer; koble til med nøkkelen den ble sendt med for å avklare dette
unknown-doubt = åpne ordrer, de nyeste transaksjonene og saldoene hos børsen. Så langt: { $why }
doubt-moved-nok = tilgjengelige kroner falt med { $amount }, slik dette ville fått dem til å falle
doubt-moved-available = tilgjengelig bitcoin på { $account } falt med { $amount }, slik dette ville fått den til å falle
doubt-moved-total = bitcoin på { $account } falt med { $amount }, slik dette ville fått den til å falle
doubt-shared-match = en transaksjon som passer kan høre til en annen ordre eller betaling, eller være del av en større
doubt-in-flight = forespørselen kan fortsatt være underveis
doubt-too-soon = ingen spor ennå; Nordlys venter { $minutes } minutter før stillhet regnes som svar
doubt-moved-before = en tidligere sjekk så en saldo endre seg som bare dette kan forklare
doubt-limit-no-trace = en limitordre som er kansellert siden, etterlater ingen spor; sjekk historikken din hos børsen
doubt-fills = transaksjoner gjort mens den ble sendt kan være utførelsene av den, men summen stemmer ikke
doubt-read-failed = en lesing fra børsen feilet, så stillhet beviser ingenting
doubt-too-large = saldoene børsen oppgir er for store til å legges sammen, så stillhet beviser ingenting
doubt-no-balances-before = saldoene før sending ble ikke lest, så stillhet beviser ingenting
doubt-held-back = { $held } er holdt tilbake der åpne salgsordrer forklarer { $sells }: en betaling kan være underveis
doubt-row-disagrees = { $account } har { $holds }, men den nyeste transaksjonen sier { $says }
doubt-changed-without-row = saldoen på { $account } endret seg uten at noen transaksjon er listet
doubt-unaccounted = { $account } hadde { $was } da dette ble sendt og har { $holds }, noe de listede transaksjonene ikke forklarer
order-placed-not-recorded = Ordren ble lagt inn. Nordlys kunne ikke lagre det lokalt ({ $reason }); den sjekkes igjen.
order-market-buy = Markedskjøp, { $amount }
order-market-sell = Markedssalg, { $amount }
order-limit-buy = Limitkjøp, { $amount }
order-limit-sell = Limitsalg, { $amount }
cancel-may-be-unknown = En ordre med ukjent utfall kan være denne, og Nordlys har ikke funnet spor av den på lenge. Å kansellere er trygt for pengene dine, men da finnes den kanskje aldri. Kanseller likevel?
cancel-still-checking = Nordlys sjekker fortsatt en ordre der svaret ble borte, og kunne ikke nå børsen nå. Prøv å kansellere igjen om litt.
cancel-failed = Kunne ikke kansellere: { $reason }

## Betalinger

payment-price-moved = Kursen har endret seg siden du så over betalingen; se over den på nytt.
payment-changed = Betalingen er endret siden du så over den; se over den på nytt.
payment-recipient-incomplete = fyll ut mottakerens opplysninger
payment-sent = Betalingen er sendt.
payment-sent-not-recorded = Betalingen er sendt. Nordlys kunne ikke lagre det lokalt ({ $reason }); den sjekkes igjen.
payment-recipient-not-saved = Mottakeren ble ikke lagret: { $reason }.
payment-found-sent = Svaret kom ikke frem, men betalingen er funnet på kontoen: den er sendt.
payment-not-sent = Betalingen ble ikke sendt. Ingenting ble trukket.
payment-unknown = Utfallet er ukjent ennå. Ikke send på nytt: Nordlys sjekker kontoen.
payment-status-completed = Fullført
payment-status-failed = Feilet
payment-status-pending = Sendt, venter på bekreftelse fra nettverket
payment-status-unknown = Utfallet er ukjent: Nordlys sjekker kontoen. Ikke send på nytt.
payment-status-not-sent = Ikke sendt: ingenting ble trukket
payment-status-refused = Avvist: { $reason }
payment-completed-title = Betaling fullført
payment-failed-title = Betaling feilet

## Tilkoblinger og innstillinger

permission-trading = handel
permission-withdrawal = uttak
permission-receive = Motta
capability-oauth-cannot = { $what } krever en API-nøkkel med den tillatelsen; OAuth-tilgang kan ikke brukes
capability-key-lacks = denne API-nøkkelen mangler tillatelsen { $what }
capability-unknown-until-used = ukjent til den brukes første gang: børsen sier om nøkkelen har lov
feature-unknown-until-used = ukjent til den brukes første gang: børsens svar viser det
refusal-needs-key = krever en API-nøkkel; OAuth-tilgang kan ikke brukes
refusal-needs-secret = krever API-hemmeligheten for å signere; bare nøkkelen er lagret
refusal-key-lacks = krever en API-nøkkel med tillatelsen { $permission }; denne nøkkelen har den ikke
refusal-missing-scope = krever en API-nøkkel eller OAuth-tilgangen «{ $scope }», som ikke ble gitt
refusal-token-expired = krever ny tilgang: påloggingen er utløpt; koble til på nytt
refusal-other = kan ikke gjøres med denne tilgangen
refusal-oauth-cannot = krever en API-nøkkel med tillatelsen { $permission }; OAuth-tilgang kan ikke brukes
refusal-no-credentials = { $oauth ->
    [yes] krever en API-nøkkel eller OAuth-tilgang, og ingen av dem er koblet til
   *[no] krever en API-nøkkel, og ingen er koblet til
}
secret-keyring-locked = Systemets nøkkelring er låst eller kjører ikke, så lagrede nøkler og pålogginger kan ikke leses. Lås den opp («Passord og nøkler» eller nøkkelring-spørsmålet på skrivebordet), og start Nordlys på nytt.
secret-damaged = En lagret nøkkel eller pålogging var skadet og brukes ikke. Koble fra for å fjerne den, og koble til på nytt.
request-timeout-range = tidsgrensen må være { $min } til { $max } sekunder
loopback-not-found-title = Fant ikke siden
loopback-not-found-text = Denne adressen tar bare imot svaret på innloggingen.
loopback-not-this-title = Ikke denne innloggingen
loopback-not-this-text = Dette svaret hører ikke til innloggingen Nordlys venter på. Har du startet en, fullfør den i fanen Nordlys åpnet.
loopback-connected-title = Tilkoblet
loopback-connected-text = Du kan lukke denne fanen og gå tilbake til Nordlys.
loopback-not-connected = Ikke tilkoblet
loopback-declined-text = Du avslo. Du kan lukke denne fanen og gå tilbake til Nordlys.
loopback-failed-text = Noe gikk galt. Gå tilbake til Nordlys for å se hva som skjedde.

## Motta

invoice-unpaid = Venter på betaling
invoice-pending = Betaling underveis
invoice-paid = Betalt
invoice-expired = Utløpt
invoice-cancelled = Kansellert
invoice-any-amount = valgfritt beløp
invoice-paid-title = Faktura betalt
deposit-received-title = Bitcoin mottatt
deposit-pending-title = Bitcoin på vei
deposit-body = { $amount } til { $account }
deposit-body-pending = { $amount } til { $account }, ikke endelig ennå
deposits-while-closed-title = Mottatt mens Nordlys var lukket
deposits-while-closed-body = { $count } innskudd, { $total } i alt:
deposits-more = og { $count } til

## Skattehistorikk

tax-kind-buy = Kjøp
tax-kind-sell = Salg
tax-kind-withdrawal = Uttak
tax-kind-deposit = Innskudd
tax-kind-bonus = Bonus
tax-kind-nok-deposit = NOK-innskudd
tax-kind-nok-withdrawal = NOK-uttak
tax-kind-btc-adjustment = BTC-justering
tax-kind-nok-adjustment = NOK-justering
tax-sub-market = markedsordre
tax-sub-limit = limitordre
tax-sub-manual = gjort manuelt hos børsen
tax-sub-onchain = on-chain
tax-sub-lightning = Lightning
tax-sub-internal = mellom dine kontoer
tax-sub-internal-external = intern–ekstern (børsen sier ikke mer)
tax-sub-lightning-invoice = Lightning-faktura
tax-sub-lightning-address = Lightning-adresse
tax-sub-lightning-lnurl = LNURL
tax-sub-bank = bankoverføring
tax-sub-card = kort
tax-sub-write-off = avskrivning
tax-sub-correction = korreksjon
tax-not-computable = kan ikke beregnes: venter siden { $since }
tax-not-computable-contradicted = kan ikke beregnes: løpende saldo på { $rows ->
    [one] én rad
   *[other] { $rows } rader
} ({ $ids }) stemmer verken med kontoens eller totalen beløpene gir
tax-not-computable-overflow = kan ikke beregnes: beløpene er for store til å summeres
tax-account-deleted = { $name } (slettet)

## Gevinster og årsslutt

gains-not-computable-unknown = kan ikke beregnes: { $count ->
    [one] én avhending
   *[other] { $count } avhendinger
} bruker bitcoin med ukjent kostpris; oppgi kostprisen for hvert innskudd fra utenfor børsen på skattemeldingskortet
gains-method-fifo = FIFO (først inn, først ut)
gains-method-average = gjennomsnittlig kostpris
gains-matched-by = Partier matchet etter { $method }.
gains-deposits-at-market = Innskudd fra utenfor børsen ({ $count }) er satt til markedsverdien da de kom inn, siden kjøpsprisen ikke er kjent her.
gains-moved-out = Uttak som ikke er merket som betaling ({ $count }), forlot beholdningen med sin kostpris og uten gevinst.
gains-sold-more = Realisasjoner som solgte mer enn historikken viser ble kjøpt ({ $count }): den delen regnes med null i kostpris.
gains-unpriced = Ingen markedskurs på { $ids }: verdsatt til null.
gains-unknown-type = Transaksjoner av ukjent type { $kind } ({ $count }) er ikke tatt med.
rate-source-transaction = markedskursen for din siste transaksjon, den { $date }
rate-source-entered = Skatteetatens kurs, lagt inn av deg (NOK per BTC)
rate-source-entered-usd = Skatteetatens kurser, lagt inn av deg: { $usd } USD per BTC × { $nok } NOK per USD
rate-source-sample = Nordlys' egen kursmåling { $time } UTC (midtkurs)
rate-source-missing = ingen kurs: legg inn en

## Hva en kommando ikke fikk gjort

no-such-account = Det finnes ingen slik bitcoinkonto.
no-such-recipient = Det finnes ingen slik lagret mottaker.
recipient-destination-fixed = En lagret mottaker er bundet til mottakeradressen den ble lagret for; lagre den andre adressen som en egen mottaker.
no-such-invoice = Det finnes ingen faktura { $id } her.
no-such-profile = Det finnes ingen profil { $id }.
no-such-journal-entry = Det finnes ingen journalpost { $id }.
no-active-profile = Ingen profil er valgt.
profile-form-wrong = Innstillingene for børsen er ikke riktige.
profile-address-malformed = `{ $text }` er ikke en nettadresse.
profile-address-scheme = Adressen må begynne med https (eller http til 127.0.0.1 eller [::1]), ikke `{ $scheme }`.
profile-address-insecure = Ukryptert http er bare tillatt til denne maskinen etter adresse (127.0.0.1 eller [::1]); bruk https for `{ $text }`.
profile-address-extra = Adressen kan ikke ha brukernavn, passord, spørring eller fragment.
profile-address-path = Oppgi bare børsens adresse, uten sti (`{ $path }`): Nordlys legger til stiene.
profile-operator-malformed = Forkortelsen må være 1 til 16 små bokstaver eller sifre, som `svc`.
profile-client-id-spaces = En klient-ID har ingen mellomrom.
profile-scopes-none = Kryss av for minst én type tilgang.
profile-scope-unknown = `{ $scope }` er ikke en tilgang denne børsen kjenner.
oauth-needs-client-id = Denne børsen har ikke gitt Nordlys en klient-ID for innlogging i nettleseren ennå. Koble til med en API-nøkkel i stedet.
choose-a-scope = Velg minst én av de kjente tilgangene.
sandbox-did-not-start = Sandkassen startet ikke: { $reason }
sandbox-not-running = Sandkassen kjører ikke.
export-not-written = Kunne ikke skrive { $path }: { $reason }
invoice-unreadable = Børsens faktura kunne ikke leses: { $reason }
created-invoice-amount = Børsens faktura gjelder { $got }, ikke de { $asked } som ble bedt om; den vises ikke.
created-invoice-no-amount = Børsens faktura oppgir ikke noe beløp, men { $asked } ble bedt om; den vises ikke.
created-invoice-unasked = Børsens faktura gjelder { $got }, men en for valgfritt beløp ble bedt om; den vises ikke.
created-invoice-description = Børsens faktura binder seg ikke til beskrivelsen som ble gitt; den vises ikke.
created-invoice-other = Børsens faktura er ikke den som ble bedt om; den vises ikke.

order-same-as-unknown = Den samme ordren kan allerede være lagt inn: utfallet er fortsatt ukjent.
payment-same-as-unknown = Den samme betalingen kan allerede være sendt: utfallet er fortsatt ukjent.
payment-same-as-recent = Du betalte dette for { $ago } siden ({ $at }): samme beløp, til samme sted, fra samme konto. Betale igjen?
settle-refused-placed = Denne ordren kan ikke avgjøres som ikke lagt inn: børsen viser at den ble lagt inn.
settle-refused-sent = Denne betalingen kan ikke avgjøres som ikke sendt: børsen viser at den ble sendt.
settle-refused-settled = Denne er allerede avgjort.
settle-refused-meanwhile = Denne ble avgjort i mellomtiden.
settle-refused-in-flight = Denne kan fortsatt være på vei til børsen: vent til Nordlys har gitt den opp (høyst { $minutes } minutter), og sjekk så på nytt.
settle-refused-not-listed = Ikke avgjort: ordre { $order } er ikke blant de åpne ordrene dine. La ordrenummeret stå tomt hvis ordren ble fylt eller kansellert.
settle-refused-not-this-order = Ikke avgjort: ordre { $order } er en annen type ordre, går den andre veien eller er eldre enn denne.
settle-refused-claimed = Ikke avgjort: ordre { $order } hører allerede til en annen uavklart ordre.
settle-placed-not-an-order = Dette er en betaling: bare en ordre kan avgjøres som lagt inn.

## Feil fra børsen og ved tilkobling

error-refused = { $action } { $reason }.
action-deposit-destinations = Å hente innskuddsadresser
action-create-invoice = Å lage Lightning-fakturaer
action-get-invoice = Å lese Lightning-fakturaer
action-list-orders = Å vise åpne ordrer
action-create-order = Å legge inn ordrer
action-cancel-order = Å kansellere ordrer
action-price = Å lese prisen
action-volume = Å lese volumstatistikk
action-volume-historic = Å lese historisk volum
action-bitcoin-accounts = Å lese bitcoinkontoene
action-fiat-account = Å lese NOK-kontoen
action-revoke-consent = Å trekke tilbake en apps tilgang
action-tax-balance = Å lese skattesaldoer
action-tax-transactions = Å lese skattehistorikken
action-create-withdrawal = Å sende bitcoin
action-get-withdrawal = Å lese betalinger
error-not-sent = Nordlys sendte ikke forespørselen fordi den ikke er gyldig ({ $detail }). Ingenting ble endret.
error-connect = Fikk ikke kontakt med børsen på { $url }. Sjekk internettforbindelsen og prøv igjen.
error-transport = Forbindelsen til børsen brøt. Prøv igjen.
error-timeout = Børsen svarte ikke innen { $seconds } s. Prøv igjen.
error-outcome-unknown = Børsens svar gikk tapt, så forespørselen kan ha blitt utført. Sjekk { $check ->
    [orders] åpne ordrer og saldoer
   *[withdrawals] betalinger og saldoer
} før du prøver igjen: sender du den på nytt, kan det skje to ganger.
error-unauthenticated = Børsen godtok ikke påloggingen: { $message }
error-forbidden = Børsen tillater ikke dette: { $message }
error-rate-limited = Børsen begrenser hvor ofte den kan spørres, og ingenting ble gjort. Prøv igjen om { $seconds } s.
error-rate-limited-later = Børsen begrenser hvor ofte den kan spørres, og ingenting ble gjort. Prøv igjen om litt.
error-nonce-shared = Børsen avviste forespørselens nummer (nonce): en annen app ser ut til å bruke samme API-nøkkel, og ingenting ble gjort. Gi hver app sin egen nøkkel i børsens innstillinger.
error-rejected = Børsen avviste forespørselen (HTTP { $status }): { $message }
error-server = Børsen feilet (HTTP { $status }): { $message }. Prøv igjen senere.
error-unreadable = Børsens svar kunne ikke leses (ved «{ $field }»). Prøv igjen senere; fortsetter det, kan Nordlys trenge en oppdatering.
error-said = børsen sa: { $message }
error-other = Noe gikk galt: { $detail }
error-nonce-file = Nordlys kan ikke bruke nonce-filen { $path }, så den sender ingen signerte forespørsler.
error-nonce-damaged = Nonce-filen { $path } er skadet. Signerte forespørsler stanses heller enn å risikere å bruke en nonce om igjen; fjern filen bare hvis API-nøkkelen er byttet ut.
error-nonce-exhausted = Telleren for forespørsler (nonce) er brukt opp. Lag en ny API-nøkkel.
error-key-prefix = API-nøkkelen må begynne med «{ $prefix }».
error-key-empty = API-nøkkelen har ingenting etter «{ $prefix }».
error-key-characters = API-nøkkelen inneholder mellomrom eller kontrolltegn.
error-secret-prefix = API-hemmeligheten må begynne med «{ $prefix }».
error-secret-base64 = API-hemmeligheten er ikke gyldig Base64 (med prefikset).
error-token-malformed = Tilgangstokenet er tomt eller inneholder mellomrom.
error-url-malformed = «{ $url }» er ikke en nettadresse.
error-url-scheme = Børsens adresse må bruke https (eller http til 127.0.0.1 eller [::1]), ikke «{ $url }».
error-url-insecure = Vanlig http er bare tillatt til denne maskinen med adresse (127.0.0.1 eller [::1]); bruk https for «{ $url }».
error-url-extra = Børsens adresse kan ikke ha brukernavn, passord, spørring eller fragment.
error-oauth-rejected = Børsen avviste påloggingen: { $description }
error-oauth-transport = Fikk ikke kontakt med børsens påloggingstjeneste. Prøv igjen.
error-oauth-malformed = Svaret fra påloggingstjenesten kunne ikke leses. Prøv igjen senere.
error-oauth-config = Innstillingene for pålogging er ikke gyldige: { $detail }
error-key-rejected = Børsen godtok ikke nøkkelen: { $reason }
error-browser = Kunne ikke åpne nettleseren for påloggingen.
error-reconnect = Forbindelsen til børsen gikk tapt. Koble til på nytt.
error-sign-in-listen = Kunne ikke vente på denne maskinen (127.0.0.1) på svaret fra påloggingen.
error-sign-in-timeout = Nettleseren svarte ikke innen { $seconds } sekunder. Begynn på nytt når du er klar.
error-sign-in-denied = Du avslo tilgang i nettleseren.
error-sign-in-refused = Børsen avviste påloggingen: { $reason }
error-sign-in-scope = Børsen vil ikke gi tilgangen som ble bedt om: { $reason }
error-sign-in-mismatch = Svaret hørte ikke til denne påloggingen, så ingenting ble endret.
error-sign-in-no-code = Svaret fra nettleseren hadde ingen autorisasjonskode.
sync-failed-exchange = { $reason } De { $stored } nye radene før det er beholdt, og neste synkronisering fortsetter derfra.
sync-failed-store = Skattehistorikken kunne ikke lagres: { $detail }
sync-failed-interrupted = Synkroniseringen stoppet før siste side var lagret. Neste synkronisering fortsetter derfra.
sync-failed-other-accounts = Skattehistorikken i denne profilen tilhører andre kontoer ({ $history }) enn denne nøkkelen ser ({ $here }), så ingenting ble lagt til. Legg den til side for å starte en ny historikk for disse kontoene; den gamle beholdes og vises under Innstillinger.

## Varigheter

duration-minutes = { $minutes } min
duration-hours = { $hours } t

## Hva en mottaker ble gjenkjent som

address-legacy = eldre type
address-nested-segwit = segwit i P2SH
address-segwit = segwit
address-taproot = taproot
address-witness = witness
destination-onchain = Bitcoin-adresse ({ $kind }), on-chain
destination-invoice = Lightning-faktura for { $amount }, utløper om { $expiry }
destination-lightning-address = Lightning-adresse { $address }
destination-lnurl = LNURL-betaling til { $host }

## Bekreftelser

summary-amount = Beløp
summary-value = Verdi
summary-to = Til
summary-destination = Mottaker-ID
summary-from = Fra
summary-recipient = Mottaker
summary-marked-as = Merket som
summary-payment = betaling
summary-fee = Gebyr
summary-fee-lightning = oppgis ikke av børsen før sending; rutingsgebyret trekkes fra kontoen og vises i historikken etterpå
summary-fee-onchain = oppgis ikke av børsen før sending; nettverksgebyret trekkes fra kontoen og vises i historikken etterpå
## The confirmation outside the window (a native dialog)
confirm-payment-title = Nordlys: sende { $amount }?
confirm-buy-title = Nordlys: legge inn denne kjøpsordren?
confirm-sell-title = Nordlys: legge inn denne salgsordren?
confirm-invoice = Lightning-faktura til { $payee }, gyldig til { $expires }
confirm-price = Pris
confirm-at-market = til markedspris
confirm-send = Send
confirm-place = Legg inn ordren
confirm-cancel = Avbryt
confirm-plan-title = Nordlys: lagre dette faste kjøpet?
confirm-plan-buys = Kjøper
confirm-keep-plan = Lagre planen
confirm-default-account = børsens standardkonto
send-not-reviewed = Denne gjennomgangen kan ikke lenger sendes (den er sendt, erstattet eller mer enn 30 minutter gammel). Ingenting ble sendt; se over på nytt.
send-not-confirmed = Ingenting ble sendt: bekreftelsen ble avbrutt.
send-no-dialog = Ingenting ble sendt: Nordlys fikk ikke vist bekreftelsen utenfor vinduet ({ $detail }).

order-summary-market-buy = Kjøp bitcoin for { $amount } til markedspris (omtrent { $estimate } før gebyr).
order-summary-market-sell = Selg { $amount } til markedspris (omtrent { $estimate } før gebyr).
order-summary-limit-buy = Legg inn en grenseordre om å kjøpe bitcoin for { $amount } til { $price } per BTC eller lavere. Den står åpen til den fylles eller kanselleres.
order-summary-limit-sell = Legg inn en grenseordre om å selge { $amount } til { $price } per BTC eller høyere. Den står åpen til den fylles eller kanselleres.

## Grafer

chart-collecting = Kursen samles inn – grafen fylles etter hvert
chart-daily = Dagspris, fra børsens volum og dine egne handler
holdings-empty = Ingen transaksjoner ennå: synkroniser skattehistorikken for å se beholdningen over tid
holdings-total = Alle kontoer
holdings-at-rate = Verdi til hver transaksjons markedskurs
holdings-at-sample = Verdi til Nordlys' egne kursmålinger (midtkurs)
holdings-gain = Realisert gevinst
holdings-loss = Realisert tap
holdings-pending = En transaksjon fra { $time } venter fortsatt: tallene fra da av kan endre seg
holdings-contradicted = { $rows ->
    [one] én rad
   *[other] { $rows } rader
} ({ $ids }) har en løpende saldo som verken stemmer med kontoens saldo eller totalen beløpene gir: saldoene som tegnes kommer fra beløpene
holdings-deleted-account = { $name } (slettet)
holdings-value-at-rate = Verdt { $value } til { $rate } per BTC, markedskursen for transaksjonen { $time }
holdings-value-at-sample = Verdt { $value } til { $rate } per BTC, Nordlys' kursmåling { $time }
holdings-realised-gain = realisert gevinst { $nok }
holdings-realised-loss = realisert tap { $nok }
disposal-gain = gevinst { $nok }
disposal-loss = tap { $nok }
disposal-not-computable = gevinst eller tap kan ikke beregnes
holdings-realised-unknown = salg der gevinsten ikke kan beregnes: { $count }
chart-spread = Laveste kjøpskurs til høyeste salgskurs
chart-samples = Målt av Nordlys
valued-at-bid = til budkurs, { $price }, { $time }
estimate-at-ask = til tilbudskurs, { $price }, { $time }
estimate-at-limit = til grenseprisen din
chart-no-volume = Ingen volum i perioden

## Skattemeldingens kort: hvorfor et tall ikke kan regnes ut, og hva som løser det

card-why-no-rate = ingen kilde for kursen ved årsslutt er valgt for { $year }
card-fix-no-rate = legg inn Skatteetatens kurs per 1. januar { $next }, eller velg siste markedskurs i historikken din eller Nordlys' egen kursmåling
card-why-no-transaction-rate = ingen transaksjon fram til slutten av { $year } har markedskurs
card-fix-no-transaction-rate = legg inn Skatteetatens kurs per 1. januar { $next }
card-why-no-sample = Nordlys målte ingen kurs innen 10 minutter fra midnatt i Oslo 31. desember { $year }
card-fix-no-sample = legg inn Skatteetatens kurs per 1. januar { $next }, eller velg siste markedskurs i historikken din
card-why-rate-out-of-range = de innlagte USD-kursene gir et produkt Nordlys ikke kan regne med
card-fix-rate-out-of-range = sjekk de to kursene mot Skatteetatens tabell
card-why-pending = transaksjonen fra { $time } er ikke ferdig hos børsen
card-fix-pending = synkroniser igjen når børsen har gjort den ferdig
card-why-unknown-type = transaksjon { $id } er av en type denne versjonen ikke kjenner ({ $kind })
card-fix-unknown-type = oppdater Nordlys; den gjetter ikke hva transaksjonen gjorde
card-why-malformed = transaksjon { $id } kunne ikke leses ({ $reason })
card-fix-malformed = synkroniser igjen; meld fra til børsen om den fortsatt ikke kan leses
card-why-oversold = salget fra { $time } solgte { $btc } mer enn historikken viser kjøpt
card-fix-oversold = synkroniser hele historikken, eller legg inn kostpris for bitcoin som kom utenfra børsen
card-why-balance-contradicted = løpende saldo på rad { $ids } er verken kontoens saldo eller totalen radenes beløp summerer seg til, så beholdningen kan ikke leses av denne historikken
card-fix-balance-contradicted = synkroniser igjen når rader som venter eller kommer sent er på plass; består det, spør børsen om { $ids }
card-why-amounts-overflow = historikkens beløp er for store til å summeres
card-fix-amounts-overflow = synkroniser historikken igjen; består det, spør børsen hva disse radene er
card-why-deposit-cost = bitcoin solgt eller betalt { $time } kom fra et innskudd utenfra børsen { $deposited }, med ukjent kostpris
card-fix-deposit-cost = legg inn anskaffelsesdato og kostpris i NOK for innskuddet fra { $deposited } under «Innskudd fra utenfor børsen»
card-why-no-row-rate = transaksjonen fra { $time } har ingen markedskurs å verdsette den etter
card-fix-no-row-rate = spør børsen om verdien; Nordlys gjetter den ikke
card-why-fee = handelen fra { $time } viser ikke om gebyret er med i beløpet
card-fix-fee = sjekk handelen på børsens nettside; Nordlys gjetter ikke hvor gebyret er

## Skattemeldingens kort i vinduet, og vedlegget
card-nothing-synced = Ingen skattehistorikk er lagret ennå: synkroniser den først, og åpne så kortet.
card-year-outside = { $year } ligger utenfor den synkroniserte historikken, som går fra { $first } til { $last }.
card-field-landkode = Land
card-field-navn = Navn på virtuell eiendel
card-field-kontonummer = Kontonummer
card-field-antall = Antall
card-field-formuesverdi = Formuesverdi
card-field-gevinst = Skattepliktig gevinst ved realisasjon
card-field-tap = Fradragsberettiget tap ved realisasjon
card-field-annen = Annen skattepliktig kapitalinntekt
card-field-boersnavn = Børs
card-xml-left-out = Utelatt fra filen fordi de ikke kan beregnes: { $fields }. Fyll dem inn i skattemeldingen selv, eller rett årsaken og eksporter på nytt.
deposit-cost-bad-date = «{ $date }» er ikke en dato: skriv den som 2021-03-04.
deposit-cost-future = { $date } har ikke kommet ennå: bitcoinene i et innskudd ble anskaffet før de kom inn.
attachment-title = Vedlegg til skattemeldingen: virtuelle eiendeler, inntektsåret { $year }
attachment-final = Inntektsåret er slutt.
attachment-so-far = Inntektsåret er ikke slutt: tallene gjelder per nå.
attachment-method = Metode: { $method }
attachment-rule-set = Regelsett: { $version }
attachment-rows = Rader brukt: { $count }; SHA-256 over JSON-en slik børsen sendte den, én per linje: { $hash }
attachment-rate = Kurs ved årsslutt: { $rate } ({ $source })
attachment-no-rate = Kurs ved årsslutt: ingen valgt
attachment-exchange = Børs: { $name }
attachment-not-computable = kan ikke beregnes: { $reason }; { $fix }
attachment-figures = Tallene slik de føres (hele kroner), eksakt i parentes
attachment-disposals = Realisasjoner og partiene de brukte (vederlag - kostpris = gevinst)
attachment-income = Bonuser (annen kapitalinntekt), til markedskurs da de kom
attachment-deposits = Innskudd fra utenfor børsen
attachment-not-entered = kostpris ikke lagt inn
attachment-entered = lagt inn av brukeren: anskaffet { $date }, kostpris { $cost }
attachment-rows-title = Radene fra børsen, slik de ble sendt, i lagret rekkefølge
tax-rate-range = «{ $typed }» er ikke en skattesats: skriv en prosent fra 0 til 100, for eksempel 22.
sale-tax-not-synced = skattehistorikken er ikke synkronisert
sale-tax-sync = synkroniser den på Skatt-skjermen for å se hva dette salget koster i skatt
sale-tax-gain = Gevinst { $amount } etter { $method }
sale-tax-loss = Tap { $amount } etter { $method }
sale-tax-tax = Skatt med { $percent } %: { $amount }
sale-tax-reduction = Skatten reduseres med { $percent } %: { $amount }

## Price alerts

alert-watched-mid = Midtkursen
alert-watched-bank-buy = Bankprisen for å kjøpe for { $usual }
alert-watched-bank-sell = Bankprisen for å selge for { $usual }
alert-watched-card-buy = Kortprisen for å kjøpe for { $usual }
alert-watched-card-sell = Kortprisen for å selge for { $usual }
alert-watched-spread = Spreaden (salgskurs − kjøpskurs)
alert-rises-above = { $what } stiger over { $level }
alert-falls-below = { $what } faller under { $level }
alert-fired-title = Prisvarsel
alert-fired-body = { $said }: nå { $value }
alert-level-problem = Nivået: { $problem }
alert-hysteresis-range = Bevegelsen tilbake før et nytt varsel er over 0 % og høyst 10 % av nivået.
alert-gone = Dette varselet ble fjernet i mellomtiden.
alert-distance-range = Avstanden er mer enn 0 % og høyst 50 % av markedet.
alert-watched-open-order = Min nærmeste åpne limitordre lagt inn i Nordlys
alert-comes-within = { $what } kommer innenfor { $level } av markedet
alert-percent = { $percent } prosent
alert-open-order-needs-key = Varsler om åpne ordrer krever en API-nøkkel: børsen viser ikke åpne ordrer til apper koblet til med OAuth.
usual-amount-problem = Det vanlige beløpet: { $problem }

## Den lokale lagringen, kryptert på disk

store-key-missing = De lokale dataene dine i { $path } er kryptert, og systemets nøkkelring har ingen nøkkel til dem. Gjenopprett oppføringen i nøkkelringen, eller legg tilbake nøkkelen du tok vare på (nordlys-cli store import-key); eller flytt filen til side for å starte på nytt. Uten nøkkelen går journalens bevis for betalinger med ukjent utfall tapt.
store-key-wrong = De lokale dataene dine i { $path } åpnes ikke med nøkkelen i systemets nøkkelring. Legg tilbake nøkkelen du tok vare på (nordlys-cli store import-key), eller flytt filen til side for å starte på nytt.
store-key-damaged = Oppføringen for nøkkelen til de lokale dataene dine i systemets nøkkelring er skadet. Legg tilbake nøkkelen du tok vare på (nordlys-cli store import-key).
store-key-not-kept = Systemets nøkkelring tok ikke vare på den nye nøkkelen til de lokale dataene dine, så ingenting ble kryptert med den. Sjekk at nøkkelringen er låst opp og har plass, og start Nordlys på nytt.
store-key-sealed = Nøkkelen til de lokale dataene dine er forseglet med låsens passord, og Nordlys er ikke låst opp siden start. Lås opp Nordlys for å åpne dataene. Kommandolinjen (nordlys-cli) kan ikke åpne dem: de faste kjøpene den kjører for denne profilen stopper til du slår av forseglingen i Innstillinger.
store-seal-needs-lock = Sett en lås først: nøkkelen forsegles med låsens passord.
store-key-not-a-key = Det er ikke en nøkkel: en nøkkel er 64 heksadesimale sifre (0–9, a–f), i grupper på fire eller ikke.
store-key-does-not-open = Denne nøkkelen åpner ikke de lokale dataene dine. Ingenting ble endret.
store-opens = De lokale dataene dine åpnes: det er ingenting å reparere.
store-in-use = De lokale dataene dine er åpne i et annet Nordlys-program (kommandolinjeverktøyet?). Lukk det og prøv igjen: dataene krypteres når ingenting annet har dem åpne.

## Applåsen

locked-notice-title = Nordlys (låst)
locked-notice-body = Noe har skjedd. Lås opp Nordlys for å se det.
app-locked = Nordlys er låst. Lås opp for å se dette.
lock-keyring-unreadable = Nordlys forblir låst: systemets nøkkelring, som har låsens passord, kunne ikke leses ({ $detail }). Lås opp nøkkelringen (logg inn igjen), og prøv passordet.
lock-password-short = Passordet må ha minst 8 tegn.
lock-password-mismatch = De to passordene er ulike.
lock-password-wrong = Det er ikke låsens passord.
lock-password-missing = Skriv inn passordet til låsen.
lock-idle-range = Tiden uten aktivitet er et helt antall minutter fra 1 til 240.
lock-payment-password = Skriv låsens passord for å sende denne betalingen.
lock-password-to-weaken = Skriv inn låsens passord for å svekke låsen (lengre tid før låsing, eller betalinger uten passord).
lock-password-for-change = Skriv inn låsens passord for å gjøre denne endringen: et nytt eller større fast kjøp, eller en annen børsadresse.
lock-password-for-key = Skriv inn låsens passord for å se nøkkelen til dataene dine.
lock-password-for-seal = Skriv inn låsens passord for å endre hvordan nøkkelen til dataene dine oppbevares.

## Systemkurven

tray-open = Åpne Nordlys
tray-privacy = Skjul eller vis beløp
tray-lock = Lås
tray-quit = Avslutt Nordlys
tray-locked = Nordlys (låst)
autostart-unavailable = Nordlys kan ennå ikke starte seg selv ved innlogging på dette systemet.
weekday-mon = mandag
weekday-tue = tirsdag
weekday-wed = onsdag
weekday-thu = torsdag
weekday-fri = fredag
weekday-sat = lørdag
weekday-sun = søndag
plan-said-day = Kjøp for { $amount } hver dag kl. { $at }
plan-said-week = Kjøp for { $amount } hver { $weekday } kl. { $at }
plan-said-month = Kjøp for { $amount } den { $day }. hver måned kl. { $at }
plan-said-capped = { $said }, med mindre prisen er over { $cap }
plan-skip-above-cap = Hoppet over: salgskursen, { $ask }, var over taket ditt på { $cap }
plan-skip-rung-at-zero = Hoppet over: med salgskurs { $ask } ville stigens laveste trinn fått prisen 0 kr
plan-run-missed = Gått glipp av: Nordlys kjørte ikke da kjøpet skulle skje
plan-run-held = Holdt tilbake: utfallet av et tidligere kjøp er ikke kjent ennå
plan-run-order = Ordre { $order } (journalpost { $entry })
plan-run-entry = Journalpost { $entry }
plan-run-refused = Avvist: { $reason } (journalpost { $entry })
plan-amount-positive = Beløpet må være mer enn 0 kr
plan-cap-positive = Pristaket må være mer enn 0 kr
plan-time = Skriv klokkeslettet som TT:MM, fra 00:00 til 23:59
plan-weekday = Velg en ukedag
plan-month-day = Velg en dag i måneden fra 1 til 31
plan-gone = Den planen finnes ikke lenger
plan-above-available = Lagret, men dette er mer enn de { $available } som er tilgjengelig nå: kjøpene blir avvist til det er nok
plan-notice-title = Fast kjøp
plan-placed = Et fast kjøp ble lagt inn
plan-rejected = Børsen avviste et fast kjøp; planen fortsetter neste gang
plan-unknown = Et fast kjøp kan ha blitt lagt inn eller ikke; Nordlys sjekker, og planen venter til det er kjent
plan-elsewhere = Fast kjøp { $plan } ble laget for andre kontoer enn nøkkelen i denne profilen ser, så det ble ikke kjørt
plans-of-inactive-profile = Profilen { $profile } har { $count } faste kjøp som ikke kjøres mens en annen profil er i bruk; bytt til den for å kjøre dem.
tray-next-buy = Neste faste kjøp: { $at } (norsk tid)
plan-said-ladder = { $said }, som { $rungs } limitkjøp med { $step } % mellom, under tilbudskursen
plan-run-rungs = { $rungs } limitkjøp lagt inn under tilbudskursen
plan-rungs = En stige har fra 2 til 50 trinn
plan-step = Steget er en prosent over 0 og under 50
plan-ladder-too-deep = { $rungs } trinn med { $step } % mellom ville nå en pris på 0; bruk færre trinn eller et mindre steg
plan-rung-too-small = Fordelt på { $rungs } trinn ville hvert kjøpe for mindre enn 0,01 kr
plan-ladder-placed = En stige av limitkjøp ble lagt inn
account-reserved = { $btc } holdt av åpne salg eller en betaling på vei
notice-settings-set-aside = Innstillingene dine kunne ikke leses ({ $detail }). De ble tatt vare på som { $aside }, og standardinnstillingene brukes.
notice-settings-not-set-aside = Innstillingene dine kunne ikke leses ({ $detail }), og kunne ikke legges til side ({ $why }). Standardinnstillingene brukes.
notice-settings-unreadable = Innstillingene dine kunne ikke leses ({ $detail }). Standardinnstillingene brukes til du endrer en innstilling.
notice-sample-not-kept = En kursmåling kunne ikke lagres i den lokale databasen ({ $detail }).
unresolved-other-accounts = Ordrer eller betalinger som fortsatt er ukjente: { $count }, sendt fra andre kontoer enn denne nøkkelen ser. Denne nøkkelen kan ikke sjekke dem; de forblir ukjente til en nøkkel for deres egne kontoer brukes, og de sendes aldri på nytt.

## A check's steps on the In doubt screen: what was read, and what it saw
read-accounts = Bitcoin-saldoer
read-fiat = NOK-saldo
read-open-orders = Åpne ordrer
read-rows = Historikk
read-place-order = Ordrens svar
read-send-withdrawal = Betalingens svar
read-verdict = Konklusjon
read-user = Du
read-queue = Kø
seen-account = { $account }: { $available } tilgjengelig, { $total } totalt
seen-fiat = { $amount } tilgjengelig
seen-open-orders = åpne ordrer: { $count }
seen-rows = transaksjoner siden den ble sendt: { $count }
seen-rows-incomplete = transaksjoner siden den ble sendt: { $count }, men ikke alle kunne leses ({ $error })
seen-failed = lesingen feilet ({ $error })
seen-answered = børsen svarte med en feil ({ $error })
trouble-timeout = intet svar innen { $seconds } s
trouble-unreachable = fikk ikke forbindelse med børsen
trouble-connection-broke = forbindelsen brøt før svaret kom
trouble-answer-lost = svaret gikk tapt på veien
trouble-status = børsen svarte HTTP { $status }: { $message }
trouble-rate-limited = børsen begrenser hvor ofte den blir spurt
trouble-not-permitted = denne tilgangen får ikke lese det
trouble-unreadable = svaret kunne ikke leses
trouble-unreadable-rows = { $count ->
    [one] én transaksjon kunne ikke leses
   *[other] { $count } transaksjoner kunne ikke leses
}
seen-made = utført: børsen lister den som { $ids }
seen-not-made = ikke utført: { $minutes } minutter stillhet viste ingenting som kunne være den, og saldoene er forklart
seen-unknown = ikke kjent ennå: { $why }
seen-user-not-placed = du sjekket historikken hos børsen: ikke lagt inn
seen-user-not-sent = du sjekket historikken hos børsen: ikke sendt
seen-user-placed-open = du så den hos børsen: lagt inn, åpen som ordre { $order }
seen-user-placed-closed = du så den hos børsen: lagt inn, og lukket
seen-never-sent = aldri sendt: planens kjøring stoppet før dette trinnets tur
