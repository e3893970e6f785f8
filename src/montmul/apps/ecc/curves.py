# SPDX-License-Identifier: Apache-2.0
"""Short-Weierstrass curves y^2 = x^3 + a x + b over GF(p): the built-in
table and user-given curves.

The built-in curves are every prime-field curve of "SEC 2: Recommended
Elliptic Curve Domain Parameters" (version 2.0) and the r1 curves of RFC 5639
("Elliptic Curve Cryptography (ECC) Brainpool Standard Curves and Curve
Generation"), their constants kept here as data, each with its object
identifier (SEC 2 and RFC 5639; the NIST curves secp192r1 and secp256r1 have
the ANSI X9.62 identifiers prime192v1 and prime256v1).  The tests check every
entry: p and n prime, G on the curve, n*G the point at infinity, and G equal
to ``cryptography``'s public key of private key 1 where ``cryptography`` has
the curve.

Names are ``cryptography``'s (``secp256r1``, ``brainpoolP256r1``); the
aliases of :data:`ALIASES` (``P-256``, ``prime256v1``, ...) are accepted too.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Curve", "CURVES", "ALIASES", "get", "custom", "by_oid", "affine_add_public", "affine_mul_public"]


@dataclass(frozen=True)
class Curve:
    """Domain parameters (p, a, b, G, n, h) of a short-Weierstrass curve."""

    name: str
    p: int
    a: int
    b: int
    gx: int
    gy: int
    n: int  #: order of G
    h: int = 1  #: cofactor
    oid: str | None = None  #: named-curve object identifier (None: user curve)
    source: str = "user"  #: the standard that defines it

    @property
    def field_bytes(self) -> int:
        """Length of a field element (a coordinate) in bytes."""
        return (self.p.bit_length() + 7) // 8

    @property
    def order_bytes(self) -> int:
        """Length of a scalar (r, s, a private key) in bytes."""
        return (self.n.bit_length() + 7) // 8

    @property
    def a_is_minus_3(self) -> bool:
        return self.a == self.p - 3

    def on_curve(self, x: int, y: int) -> bool:
        """(x, y) is an affine point of the curve with coordinates in [0, p)."""
        p = self.p
        return 0 <= x < p and 0 <= y < p and (y * y - (x * x * x + self.a * x + self.b)) % p == 0


def _curve(name: str, oid: str, source: str, *, p: str, a: str, b: str, gx: str, gy: str, n: str, h: int) -> Curve:
    return Curve(name, int(p, 16), int(a, 16), int(b, 16), int(gx, 16), int(gy, 16), int(n, 16), h, oid, source)


_TABLE = (
    _curve("secp160k1", "1.3.132.0.9", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFAC73",
           a="0",
           b="7",
           gx="3B4C382CE37AA192A4019E763036F4F5DD4D7EBB",
           gy="938CF935318FDCED6BC28286531733C3F03C4FEE",
           n="100000000000000000001B8FA16DFAB9ACA16B6B3",
           h=1),
    _curve("secp160r1", "1.3.132.0.8", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF7FFFFFFF",
           a="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF7FFFFFFC",
           b="1C97BEFC54BD7A8B65ACF89F81D4D4ADC565FA45",
           gx="4A96B5688EF573284664698968C38BB913CBFC82",
           gy="23A628553168947D59DCC912042351377AC5FB32",
           n="100000000000000000001F4C8F927AED3CA752257",
           h=1),
    _curve("secp160r2", "1.3.132.0.30", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFAC73",
           a="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFAC70",
           b="B4E134D3FB59EB8BAB57274904664D5AF50388BA",
           gx="52DCB034293A117E1F4FF11B30F7199D3144CE6D",
           gy="FEAFFEF2E331F296E071FA0DF9982CFEA7D43F2E",
           n="100000000000000000000351EE786A818F3A1A16B",
           h=1),
    _curve("secp192k1", "1.3.132.0.31", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFEE37",
           a="0",
           b="3",
           gx="DB4FF10EC057E9AE26B07D0280B7F4341DA5D1B1EAE06C7D",
           gy="9B2F2F6D9C5628A7844163D015BE86344082AA88D95E2F9D",
           n="FFFFFFFFFFFFFFFFFFFFFFFE26F2FC170F69466A74DEFD8D",
           h=1),
    _curve("secp192r1", "1.2.840.10045.3.1.1", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFFFFFFFFFF",
           a="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFFFFFFFFFC",
           b="64210519E59C80E70FA7E9AB72243049FEB8DEECC146B9B1",
           gx="188DA80EB03090F67CBF20EB43A18800F4FF0AFD82FF1012",
           gy="7192B95FFC8DA78631011ED6B24CDD573F977A11E794811",
           n="FFFFFFFFFFFFFFFFFFFFFFFF99DEF836146BC9B1B4D22831",
           h=1),
    _curve("secp224k1", "1.3.132.0.32", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFE56D",
           a="0",
           b="5",
           gx="A1455B334DF099DF30FC28A169A467E9E47075A90F7E650EB6B7A45C",
           gy="7E089FED7FBA344282CAFBD6F7E319F7C0B0BD59E2CA4BDB556D61A5",
           n="10000000000000000000000000001DCE8D2EC6184CAF0A971769FB1F7",
           h=1),
    _curve("secp224r1", "1.3.132.0.33", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF000000000000000000000001",
           a="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFE",
           b="B4050A850C04B3ABF54132565044B0B7D7BFD8BA270B39432355FFB4",
           gx="B70E0CBD6BB4BF7F321390B94A03C1D356C21122343280D6115C1D21",
           gy="BD376388B5F723FB4C22DFE6CD4375A05A07476444D5819985007E34",
           n="FFFFFFFFFFFFFFFFFFFFFFFFFFFF16A2E0B8F03E13DD29455C5C2A3D",
           h=1),
    _curve("secp256k1", "1.3.132.0.10", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F",
           a="0",
           b="7",
           gx="79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798",
           gy="483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8",
           n="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141",
           h=1),
    _curve("secp256r1", "1.2.840.10045.3.1.7", "SEC 2 v2",
           p="FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF",
           a="FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFC",
           b="5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B",
           gx="6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
           gy="4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5",
           n="FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551",
           h=1),
    _curve("secp384r1", "1.3.132.0.34", "SEC 2 v2",
           p="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE"
              "FFFFFFFF0000000000000000FFFFFFFF",
           a="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE"
              "FFFFFFFF0000000000000000FFFFFFFC",
           b="B3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875A"
              "C656398D8A2ED19D2A85C8EDD3EC2AEF",
           gx="AA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A38"
              "5502F25DBF55296C3A545E3872760AB7",
           gy="3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C0"
              "0A60B1CE1D7E819D7A431D7C90EA0E5F",
           n="FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF"
              "581A0DB248B0A77AECEC196ACCC52973",
           h=1),
    _curve("secp521r1", "1.3.132.0.35", "SEC 2 v2",
           p="1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
              "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
              "FFF",
           a="1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
              "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
              "FFC",
           b="51953EB9618E1C9A1F929A21A0B68540EEA2DA725B99B315F3B8B489918EF109"
              "E156193951EC7E937B1652C0BD3BB1BF073573DF883D2C34F1EF451FD46B503F"
              "00",
           gx="C6858E06B70404E9CD9E3ECB662395B4429C648139053FB521F828AF606B4D3D"
              "BAA14B5E77EFE75928FE1DC127A2FFA8DE3348B3C1856A429BF97E7E31C2E5BD"
              "66",
           gy="11839296A789A3BC0045C8A5FB42C7D1BD998F54449579B446817AFBD17273E6"
              "62C97EE72995EF42640C550B9013FAD0761353C7086A272C24088BE94769FD16"
              "650",
           n="1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
              "FFA51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386"
              "409",
           h=1),
    _curve("brainpoolP160r1", "1.3.36.3.3.2.8.1.1.1", "RFC 5639",
           p="E95E4A5F737059DC60DFC7AD95B3D8139515620F",
           a="340E7BE2A280EB74E2BE61BADA745D97E8F7C300",
           b="1E589A8595423412134FAA2DBDEC95C8D8675E58",
           gx="BED5AF16EA3F6A4F62938C4631EB5AF7BDBCDBC3",
           gy="1667CB477A1A8EC338F94741669C976316DA6321",
           n="E95E4A5F737059DC60DF5991D45029409E60FC09",
           h=1),
    _curve("brainpoolP192r1", "1.3.36.3.3.2.8.1.1.3", "RFC 5639",
           p="C302F41D932A36CDA7A3463093D18DB78FCE476DE1A86297",
           a="6A91174076B1E0E19C39C031FE8685C1CAE040E5C69A28EF",
           b="469A28EF7C28CCA3DC721D044F4496BCCA7EF4146FBF25C9",
           gx="C0A0647EAAB6A48753B033C56CB0F0900A2F5C4853375FD6",
           gy="14B690866ABD5BB88B5F4828C1490002E6773FA2FA299B8F",
           n="C302F41D932A36CDA7A3462F9E9E916B5BE8F1029AC4ACC1",
           h=1),
    _curve("brainpoolP224r1", "1.3.36.3.3.2.8.1.1.5", "RFC 5639",
           p="D7C134AA264366862A18302575D1D787B09F075797DA89F57EC8C0FF",
           a="68A5E62CA9CE6C1C299803A6C1530B514E182AD8B0042A59CAD29F43",
           b="2580F63CCFE44138870713B1A92369E33E2135D266DBB372386C400B",
           gx="D9029AD2C7E5CF4340823B2A87DC68C9E4CE3174C1E6EFDEE12C07D",
           gy="58AA56F772C0726F24C6B89E4ECDAC24354B9E99CAA3F6D3761402CD",
           n="D7C134AA264366862A18302575D0FB98D116BC4B6DDEBCA3A5A7939F",
           h=1),
    _curve("brainpoolP256r1", "1.3.36.3.3.2.8.1.1.7", "RFC 5639",
           p="A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377",
           a="7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9",
           b="26DC5C6CE94A4B44F330B5D9BBD77CBF958416295CF7E1CE6BCCDC18FF8C07B6",
           gx="8BD2AEB9CB7E57CB2C4B482FFC81B7AFB9DE27E1E3BD23C23A4453BD9ACE3262",
           gy="547EF835C3DAC4FD97F8461A14611DC9C27745132DED8E545C1D54C72F046997",
           n="A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7",
           h=1),
    _curve("brainpoolP320r1", "1.3.36.3.3.2.8.1.1.9", "RFC 5639",
           p="D35E472036BC4FB7E13C785ED201E065F98FCFA6F6F40DEF4F92B9EC7893EC28"
              "FCD412B1F1B32E27",
           a="3EE30B568FBAB0F883CCEBD46D3F3BB8A2A73513F5EB79DA66190EB085FFA9F4"
              "92F375A97D860EB4",
           b="520883949DFDBC42D3AD198640688A6FE13F41349554B49ACC31DCCD88453981"
              "6F5EB4AC8FB1F1A6",
           gx="43BD7E9AFB53D8B85289BCC48EE5BFE6F20137D10A087EB6E7871E2A10A599C7"
              "10AF8D0D39E20611",
           gy="14FDD05545EC1CC8AB4093247F77275E0743FFED117182EAA9C77877AAAC6AC7"
              "D35245D1692E8EE1",
           n="D35E472036BC4FB7E13C785ED201E065F98FCFA5B68F12A32D482EC7EE8658E9"
              "8691555B44C59311",
           h=1),
    _curve("brainpoolP384r1", "1.3.36.3.3.2.8.1.1.11", "RFC 5639",
           p="8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123"
              "ACD3A729901D1A71874700133107EC53",
           a="7BC382C63D8C150C3C72080ACE05AFA0C2BEA28E4FB22787139165EFBA91F90F"
              "8AA5814A503AD4EB04A8C7DD22CE2826",
           b="4A8C7DD22CE28268B39B55416F0447C2FB77DE107DCD2A62E880EA53EEB62D57"
              "CB4390295DBC9943AB78696FA504C11",
           gx="1D1C64F068CF45FFA2A63A81B7C13F6B8847A3E77EF14FE3DB7FCAFE0CBD10E8"
              "E826E03436D646AAEF87B2E247D4AF1E",
           gy="8ABE1D7520F9C2A45CB1EB8E95CFD55262B70B29FEEC5864E19C054FF9912928"
              "0E4646217791811142820341263C5315",
           n="8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7"
              "CF3AB6AF6B7FC3103B883202E9046565",
           h=1),
    _curve("brainpoolP512r1", "1.3.36.3.3.2.8.1.1.13", "RFC 5639",
           p="AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330871"
              "7D4D9B009BC66842AECDA12AE6A380E62881FF2F2D82C68528AA6056583A48F3",
           a="7830A3318B603B89E2327145AC234CC594CBDD8D3DF91610A83441CAEA9863BC"
              "2DED5D5AA8253AA10A2EF1C98B9AC8B57F1117A72BF2C7B9E7C1AC4D77FC94CA",
           b="3DF91610A83441CAEA9863BC2DED5D5AA8253AA10A2EF1C98B9AC8B57F1117A7"
              "2BF2C7B9E7C1AC4D77FC94CADC083E67984050B75EBAE5DD2809BD638016F723",
           gx="81AEE4BDD82ED9645A21322E9C4C6A9385ED9F70B5D916C1B43B62EEF4D0098E"
              "FF3B1F78E2D0D48D50D1687B93B97D5F7C6D5047406A5E688B352209BCB9F822",
           gy="7DDE385D566332ECC0EABFA9CF7822FDF209F70024A57B1AA000C55B881F8111"
              "B2DCDE494A5F485E5BCA4BD88A2763AED1CA2B2FA8F0540678CD1E0F3AD80892",
           n="AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330870"
              "553E5C414CA92619418661197FAC10471DB1D381085DDADDB58796829CA90069",
           h=1),
)

#: The built-in curves by ``cryptography``'s name.
CURVES: dict[str, Curve] = {c.name: c for c in _TABLE}

#: Other names of built-in curves (ANSI X9.62, NIST FIPS 186).
ALIASES: dict[str, str] = {
    "prime192v1": "secp192r1", "prime256v1": "secp256r1",
    "P-192": "secp192r1", "P-224": "secp224r1", "P-256": "secp256r1", "P-384": "secp384r1", "P-521": "secp521r1",
}

_BY_OID = {c.oid: c for c in _TABLE}


def get(name: str | Curve) -> Curve:
    """A built-in curve by name (or alias, any letter case); a :class:`Curve`
    is returned as it is.  ValueError naming the known curves otherwise."""
    if isinstance(name, Curve):
        return name
    folded = {k.lower(): v for k, v in CURVES.items()}
    folded.update({k.lower(): CURVES[v] for k, v in ALIASES.items()})
    try:
        return folded[str(name).lower()]
    except KeyError:
        raise ValueError(f"unknown curve {name!r}; known curves: {', '.join(CURVES)}") from None


def by_oid(oid: str) -> Curve | None:
    """The built-in curve with this named-curve object identifier, or None."""
    return _BY_OID.get(oid)


def custom(p: int, a: int, b: int, gx: int, gy: int, n: int, h: int = 1, name: str = "custom") -> Curve:
    """A user-given curve, checked: p an odd prime above 3, a and b reduced
    and 4a^3 + 27b^2 != 0 mod p, G on the curve, n prime and n*G the point at
    infinity, h >= 1 and no point of order 2 (h odd), which the complete
    addition formulas need (Renes, Costello, Batina: they are complete on
    curves of odd order).  ValueError says which condition fails."""
    import gmpy2

    if p <= 3 or not gmpy2.is_prime(p):
        raise ValueError("p must be a prime above 3")
    if not (0 <= a < p and 0 <= b < p):
        raise ValueError("a and b must be in [0, p)")
    if (4 * a ** 3 + 27 * b ** 2) % p == 0:
        raise ValueError("singular curve: 4a^3 + 27b^2 = 0 mod p")
    if h < 1 or h % 2 == 0:
        raise ValueError("the cofactor h must be odd: the complete formulas need a curve without points of order 2")
    if n < 3 or not gmpy2.is_prime(n):
        raise ValueError("n must be a prime")
    c = Curve(name, p, a, b, gx, gy, n, h)
    if not c.on_curve(gx, gy):
        raise ValueError("G is not on the curve")
    if affine_mul_public(c, n, (gx, gy)) is not None:
        raise ValueError("n*G is not the point at infinity: n is not the order of G")
    return c


# ---------------------------------------------------------------------------
# Affine reference arithmetic on plain integers (variable time; public data
# and tests only)
def affine_add_public(curve: Curve, P: tuple[int, int] | None, Q: tuple[int, int] | None) -> tuple[int, int] | None:
    """P + Q in affine coordinates (None: the point at infinity)."""
    p = curve.p
    if P is None:
        return Q
    if Q is None:
        return P
    if P[0] == Q[0]:
        if (P[1] + Q[1]) % p == 0:
            return None
        lam = (3 * P[0] * P[0] + curve.a) * pow(2 * P[1], -1, p) % p
    else:
        lam = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
    x = (lam * lam - P[0] - Q[0]) % p
    return x, (lam * (P[0] - x) - P[1]) % p


def affine_mul_public(curve: Curve, k: int, P: tuple[int, int] | None) -> tuple[int, int] | None:
    """k*P (k >= 0) by double-and-add in affine coordinates."""
    R = None
    for i in range(k.bit_length() - 1, -1, -1):
        R = affine_add_public(curve, R, R)
        if (k >> i) & 1:
            R = affine_add_public(curve, R, P)
    return R
