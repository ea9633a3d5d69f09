// SPDX-License-Identifier: GPL-3.0-or-later

/// How colours that are not in a quantised GIF palette are approximated. Exact palettes (at most
/// 255 colours in the whole animation, the usual case for loaders) are never dithered.
///
/// Whatever the mode, a pixel whose colour is the same as in the previous frame keeps the
/// previous frame's index, so areas that do not move never shimmer.
public enum GIFDither: Equatable, Sendable, CaseIterable {
    /// Each colour becomes its nearest palette entry (squared RGB distance). Smallest files,
    /// highest PSNR, no noise; smooth gradients may band. The default: loaders are small and
    /// mostly flat, and a dither pattern on a moving arc crawls from frame to frame.
    case none
    /// 8×8 Bayer ordered dithering between the nearest entry and the entry on the other side
    /// of the colour: a fixed pattern per position, so a colour that stays put keeps its
    /// pattern. Breaks up banding at a moderate size cost.
    case ordered
    /// Floyd–Steinberg error diffusion (weights 7, 3, 5, 1 /16), spread only among the pixels
    /// that changed since the previous frame. Smoothest gradients, largest files.
    case floydSteinberg
}
