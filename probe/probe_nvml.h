/*
 * probe_nvml: the driver version from NVML, loaded at run time.
 *
 * libnvidia-ml ships with the driver, not with the toolkit, so the probe
 * does not link it: it is opened with dlopen and only the three functions
 * used here are declared. When it cannot be loaded the version is unknown
 * (recorded as null), never guessed.
 */
#ifndef PROBE_NVML_H
#define PROBE_NVML_H

#include <stddef.h>

/* 0 with the version in buf ("580.65.06"); -1 with the reason in note. */
int probe_nvml_driver_version(char *buf, size_t size, char *note, size_t notelen);

#endif
