//===- Scene.cpp - The analytic scene the neural shader reproduces --------===//
//
// The reference definition of the scene (see Scene.h). train.py's `shade`
// mirrors `shadeRay` below line by line; change both together and retrain.
//
//===----------------------------------------------------------------------===//

#include "Scene.h"

#include <algorithm>
#include <cmath>

using namespace neural_shading;

namespace {

struct Vec3 {
  float x, y, z;
};

Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
Vec3 operator*(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Vec3 normalize(Vec3 a) { return a * (1.0f / std::sqrt(dot(a, a))); }
Vec3 mix(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

//===----------------------------------------------------------------------===//
// Scene constants (train.py: the block of the same name)
//===----------------------------------------------------------------------===//

const Vec3 kEye = {0.0f, 1.3f, 5.5f};
const Vec3 kTarget = {0.0f, 0.55f, 0.0f};
const float kVerticalFovDegrees = 38.0f;

const Vec3 kLightPosition = {-3.0f, 6.0f, 4.0f};
const Vec3 kLightColor = {0.95f, 0.91f, 0.84f};
const Vec3 kAmbientSky = {0.30f, 0.38f, 0.50f};
const Vec3 kAmbientGround = {0.18f, 0.15f, 0.12f};
const float kSpecular = 0.4f;
const float kShininess = 40.0f;

const Vec3 kSkyHorizon = {0.80f, 0.86f, 0.95f};
const Vec3 kSkyZenith = {0.22f, 0.42f, 0.80f};

struct Sphere {
  Vec3 center;
  float radius;
  Vec3 albedo;
};
const Sphere kSpheres[] = {
    {{-1.35f, 0.55f, 0.35f}, 0.55f, {0.80f, 0.12f, 0.08f}}, // red
    {{0.0f, 0.85f, -0.4f}, 0.85f, {0.90f, 0.72f, 0.25f}},   // yellow
    {{1.4f, 0.5f, 0.5f}, 0.5f, {0.12f, 0.30f, 0.85f}},      // blue
};

// The floor is the plane y = 0 with a checker of kCheckerSize squares that
// fades to its mean between kFadeStart and kFadeEnd from the camera, so that
// the distant floor does not alias into moire.
const float kCheckerSize = 0.6f;
const Vec3 kCheckerLight = {0.78f, 0.78f, 0.75f};
const Vec3 kCheckerDark = {0.30f, 0.30f, 0.33f};
const float kFadeStart = 6.0f;
const float kFadeEnd = 16.0f;

const float kNoHit = 1e30f;
const float kEpsilon = 1e-4f;

//===----------------------------------------------------------------------===//
// Ray casting
//===----------------------------------------------------------------------===//

/// Distance along the unit ray to the sphere's front face, or kNoHit.
float intersectSphere(Vec3 origin, Vec3 dir, const Sphere &s) {
  Vec3 oc = origin - s.center;
  float b = dot(oc, dir);
  float c = dot(oc, oc) - s.radius * s.radius;
  float disc = b * b - c;
  if (disc < 0.0f)
    return kNoHit;
  float t = -b - std::sqrt(disc);
  return t > kEpsilon ? t : kNoHit;
}

/// Whether any sphere blocks the segment from `origin` to the light.
bool occluded(Vec3 origin, Vec3 toLight, float lightDistance) {
  for (const Sphere &s : kSpheres)
    if (intersectSphere(origin, toLight, s) < lightDistance)
      return true;
  return false;
}

PixelSample shadeRay(Vec3 dir) {
  PixelSample out;
  Vec3 v = dir * -1.0f;

  // Nearest hit: the floor, then any sphere in front of it.
  float tHit = dir.y < 0.0f ? -kEye.y / dir.y : kNoHit;
  const Sphere *hitSphere = nullptr;
  for (const Sphere &s : kSpheres) {
    float t = intersectSphere(kEye, dir, s);
    if (t < tHit) {
      tHit = t;
      hitSphere = &s;
    }
  }

  Vec3 n, l = {0.0f, 0.0f, 0.0f}, albedo = {0.0f, 0.0f, 0.0f}, rgb;
  if (tHit == kNoHit) {
    // Sky: see Scene.h.
    n = v;
    float t = std::clamp(dir.y * 4.0f, 0.0f, 1.0f);
    rgb = mix(kSkyHorizon, kSkyZenith, t);
  } else {
    Vec3 p = kEye + dir * tHit;
    if (hitSphere) {
      n = normalize(p - hitSphere->center);
      albedo = hitSphere->albedo;
    } else {
      n = {0.0f, 1.0f, 0.0f};
      bool light = (static_cast<int>(std::floor(p.x / kCheckerSize)) +
                    static_cast<int>(std::floor(p.z / kCheckerSize))) %
                       2 ==
                   0;
      float fade =
          std::clamp((tHit - kFadeStart) / (kFadeEnd - kFadeStart), 0.0f, 1.0f);
      albedo = mix(light ? kCheckerLight : kCheckerDark,
                   (kCheckerLight + kCheckerDark) * 0.5f, fade);
    }
    Vec3 toLight = kLightPosition - p;
    float lightDistance = std::sqrt(dot(toLight, toLight));
    l = toLight * (1.0f / lightDistance);
    float nDotL = std::max(dot(n, l), 0.0f);
    // Only lit-facing points cast a shadow ray: past the terminator the
    // direct term is zero anyway and l stays continuous across it.
    if (nDotL > 0.0f && occluded(p + n * kEpsilon, l, lightDistance)) {
      l = {0.0f, 0.0f, 0.0f};
      nDotL = 0.0f;
    }
    // Blinn-Phong; the specular lobe is weighted by n.l so that it fades out
    // at the terminator instead of being cut off.
    Vec3 h = normalize(l + v);
    float spec =
        kSpecular * std::pow(std::max(dot(n, h), 0.0f), kShininess) * nDotL;
    Vec3 ambient = mix(kAmbientGround, kAmbientSky, 0.5f + 0.5f * n.y);
    rgb = albedo * ambient +
          kLightColor * (albedo * nDotL + Vec3{spec, spec, spec});
  }

  const Vec3 parts[] = {n, v, l, albedo};
  for (unsigned i = 0; i < 4; ++i) {
    out.features[3 * i + 0] = parts[i].x;
    out.features[3 * i + 1] = parts[i].y;
    out.features[3 * i + 2] = parts[i].z;
  }
  out.rgb[0] = rgb.x;
  out.rgb[1] = rgb.y;
  out.rgb[2] = rgb.z;
  return out;
}

} // namespace

PixelSample neural_shading::shadePixel(unsigned x, unsigned y, unsigned width,
                                       unsigned height) {
  // A pinhole camera; (sx, sy) is the pixel centre on the image plane at unit
  // distance, y pointing up.
  Vec3 forward = normalize(kTarget - kEye);
  Vec3 right = normalize(cross(forward, {0.0f, 1.0f, 0.0f}));
  Vec3 up = cross(right, forward);
  float tanHalf =
      std::tan(kVerticalFovDegrees * 0.5f * 3.14159265358979f / 180.0f);
  float aspect = static_cast<float>(width) / static_cast<float>(height);
  float sx = (2.0f * (x + 0.5f) / width - 1.0f) * tanHalf * aspect;
  float sy = (1.0f - 2.0f * (y + 0.5f) / height) * tanHalf;
  return shadeRay(normalize(forward + right * sx + up * sy));
}

uint8_t neural_shading::encodeSrgb(float linear) {
  // NaN (a diverged network) encodes as black rather than as undefined.
  float c = std::isnan(linear) ? 0.0f : std::clamp(linear, 0.0f, 1.0f);
  float s =
      c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
  return static_cast<uint8_t>(std::lround(s * 255.0f));
}
