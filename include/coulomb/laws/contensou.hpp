#pragma once
/// @file
/// Coulomb–Contensou friction of a circular (or elliptic) contact patch that slides and spins:
/// everything in one include.
///  - contensou_exact.hpp: the integral model, the exact closed forms F(ε), m(ε) (Hertz and
///    uniform pressure), the elliptic integrals, the vector form with its derivatives;
///  - contensou_approximants.hpp: the cheap approximants (Padé (1,1), (2,2), generalised);
///  - contensou_quadrature.hpp: the quadrature of the integral model for any pressure, and rolling
///    resistance by pressure distortion;
///  - contensou_limit_surface.hpp: the exact limit surface for the set-valued law and the
///    projection onto it.
/// The law interface (coulomb/laws/law.hpp, contensou_law.hpp, contensou_set.hpp) wraps these.

#include <coulomb/laws/contensou_approximants.hpp>
#include <coulomb/laws/contensou_exact.hpp>
#include <coulomb/laws/contensou_limit_surface.hpp>
#include <coulomb/laws/contensou_quadrature.hpp>
