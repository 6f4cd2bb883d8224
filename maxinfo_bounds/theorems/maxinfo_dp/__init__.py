r"""Max-information of differentially private algorithms: pure DP.

RRST Thm 1.4 (= DFHPRR Thms 7 and 8). Let ``A`` be ``(eps, 0)``-differentially private
(``eps`` in nats, as in the DP definition). Then

.. math::

   I_\infty(A, n) \le \log_2(e)\,\varepsilon n
   \qquad\text{and}\qquad
   I^{\beta}_{\infty,P}(A, n) \le \log_2(e)\Bigl(\tfrac{\varepsilon^2 n}{2}
        + \varepsilon\sqrt{n \ln(2/\beta)/2}\Bigr)\ \text{bits}.

The first holds for every input distribution (so it composes in any order); the second only
for product (i.i.d.) inputs, and is flagged ``product_only``.

Approximate DP: RRST Thm 3.1, explicit from its proof, in two variants (see
:func:`approx_dp_max_information`). Modules: :mod:`.pure`, :mod:`.approx`.
"""

from __future__ import annotations

from .approx import (
    THM31_EPS_MAX,
    THM31_IMPLIED_REGIME,
    approx_dp_max_information,
    approx_dp_max_information_implied,
    thm31_implied_float_k,
    thm31_outside,
)
from .pure import PURE_DP, PURE_DP_PRODUCT, pure_dp_max_information, pure_dp_max_information_product

__all__ = [
    "PURE_DP",
    "PURE_DP_PRODUCT",
    "pure_dp_max_information",
    "pure_dp_max_information_product",
    "approx_dp_max_information",
    "approx_dp_max_information_implied",
    "thm31_implied_float_k",
    "THM31_EPS_MAX",
    "THM31_IMPLIED_REGIME",
    "thm31_outside",
]
