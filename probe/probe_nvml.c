/* probe_nvml: the driver version from NVML, loaded at run time. */
#define _POSIX_C_SOURCE 200809L
#include "probe_nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* From nvml.h: nvmlReturn_t is an int enum, 0 is NVML_SUCCESS. */
typedef int (*S_nvml_init_fn)(void);
typedef int (*S_nvml_shutdown_fn)(void);
typedef int (*S_nvml_version_fn)(char *version, unsigned int length);

/* NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80. */
#define S_VERSION_MAX 80

/* dlsym returns an object pointer; copying its bytes is the POSIX-sanctioned
 * way to turn it into a function pointer without a pedantic warning. */
static int S_sym(void *lib, const char *name, void *fn, size_t fnsize)
{
	void *p = dlsym(lib, name);

	if (!p || fnsize != sizeof(p))
		return -1;
	memcpy(fn, &p, sizeof(p));
	return 0;
}

int probe_nvml_driver_version(char *buf, size_t size, char *note, size_t notelen)
{
	S_nvml_init_fn init;
	S_nvml_shutdown_fn shutdown;
	S_nvml_version_fn version;
	char v[S_VERSION_MAX];
	void *lib;
	int rc;

	buf[0] = '\0';
	lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(note, notelen, "libnvidia-ml.so.1 not loaded: driver version unknown");
		return -1;
	}
	if (S_sym(lib, "nvmlInit_v2", &init, sizeof(init)) != 0 ||
	    S_sym(lib, "nvmlShutdown", &shutdown, sizeof(shutdown)) != 0 ||
	    S_sym(lib, "nvmlSystemGetDriverVersion", &version, sizeof(version)) != 0) {
		snprintf(note, notelen, "libnvidia-ml.so.1 lacks the expected functions");
		dlclose(lib);
		return -1;
	}
	rc = init();
	if (rc != 0) {
		snprintf(note, notelen, "nvmlInit_v2 failed (NVML error %d)", rc);
		dlclose(lib);
		return -1;
	}
	memset(v, 0, sizeof(v));
	rc = version(v, sizeof(v));
	(void)shutdown();
	dlclose(lib);
	v[sizeof(v) - 1] = '\0';
	if (rc != 0 || !v[0]) {
		snprintf(note, notelen, "nvmlSystemGetDriverVersion failed (NVML error %d)", rc);
		return -1;
	}
	snprintf(buf, size, "%s", v);
	note[0] = '\0';
	return 0;
}
