//===- Scene.h - The analytic scene the network reproduces ------*- C++ -*-===//
//
// Three plastic spheres on a checkered floor under a point light, shaded with
// Blinn-Phong plus a hemispherical ambient term and a hard shadow. This file
// and Scene.cpp are the reference definition; train.py reimplements the same
// function in numpy, constant for constant, to produce its training data.
//
// Per pixel the scene yields the network's input (the G-buffer a deferred
// shader would read) and the analytic linear RGB radiance it must reproduce.
// kNumFeatures = 12 features, in this order:
//
//   [0, 3)   n     unit surface normal
//   [3, 6)   v     unit direction from the surface point towards the camera
//   [6, 9)   l     unit direction towards the light, times the light's
//                  visibility: (0, 0, 0) where a sphere shadows the point
//                  (a shadow-map lookup folded into the light vector)
//   [9, 12)  a     albedo (the floor's checker texture, a sphere's colour)
//
// The albedo is an input because several materials share normals and view
// directions (the top of a sphere and the floor): without it the shading is
// not a function of the features. Twelve f32 columns are 48 bytes, so every
// row of the feature matrix and of the first layer's weights is 16-byte
// aligned.
//
// Background (sky) pixels: the sky dome is seen from inside, so its normal
// faces the camera: n = v; it is not lit (l = 0) and has no albedo (a = 0),
// which no surface point has. Its radiance is a gradient in the ray's
// elevation, i.e. a function of v alone.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_EXAMPLES_NEURAL_SHADING_SCENE_H
#define COOPVEC_EXAMPLES_NEURAL_SHADING_SCENE_H

#include <cstdint>

namespace neural_shading {

constexpr unsigned kNumFeatures = 12;

/// One pixel's network input and the analytic linear radiance.
struct PixelSample {
  float features[kNumFeatures];
  float rgb[3];
};

/// Shades the ray through the centre of pixel (x, y) of a width x height
/// frame; row 0 is the top of the image.
PixelSample shadePixel(unsigned x, unsigned y, unsigned width, unsigned height);

/// Linear radiance to an 8-bit sRGB value: clamped to [0, 1], then the sRGB
/// transfer function, rounded to nearest. Used for the reference and the
/// network's image alike so that their PSNR compares like with like.
uint8_t encodeSrgb(float linear);

} // namespace neural_shading

#endif // COOPVEC_EXAMPLES_NEURAL_SHADING_SCENE_H
