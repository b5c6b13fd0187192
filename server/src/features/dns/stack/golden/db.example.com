; Zone example.com: rendered by Mailroom from its database; edits here are overwritten.
$ORIGIN example.com.
$TTL 3600
@	3600	IN	SOA	ns1.example.com. first\.last.example.org. (
			2025010203	; serial
			3600	; refresh
			1800	; retry
			604800	; expire
			300 )	; minimum
@	7200	IN	NS	ns1.example.com.
; records
@	300	IN	MX	10 mail.example.com.
@	300	IN	CAA	0 issue "letsencrypt.org"
@	7200	IN	NS	ns2.other.net.
*.apps	300	IN	A	192.0.2.8
_sip._tcp	300	IN	SRV	10 60 5060 sip.example.com.
_null._tcp	300	IN	SRV	0 0 0 .
docs	300	IN	CNAME	www.example.com.
ns1	300	IN	A	192.0.2.53
ptr	300	IN	PTR	host.example.net.
txt	300	IN	TXT	"quote \" backslash \\ tab\009 \195\169 yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy" "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
www	300	IN	A	192.0.2.1
www	300	IN	AAAA	2001:db8::1
; system records, derived from the mail settings
_dmarc	3600	IN	TXT	"v=DMARC1; p=quarantine; rua=mailto:postmaster@example.com"
