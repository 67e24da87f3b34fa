// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * result_matrix.c - the matrix document (docs/json.md): {"fsprobe":
 * VERSION, "kernels": [DOCUMENT, ...]}, one ordinary run document per
 * kernel, in the order the kernels were given. Its encoder is the run
 * document's encoder per item; its decoder checks the two keys and
 * hands each item to the run document's decoder, so a matrix is read
 * with the same checks as a single run, naming the item that is wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

struct fsp_res_matrix *fsp_res_matrix_new(void)
{
	struct fsp_res_matrix *m = calloc(1, sizeof(*m));

	if (m)
		m->fsprobe = strdup(PACKAGE_VERSION);
	if (m && !m->fsprobe) {
		free(m);
		m = NULL;
	}
	return m;
}

void fsp_res_matrix_free(struct fsp_res_matrix *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		fsp_res_doc_free(m->kernels[i]);
	free(m->kernels);
	free(m->fsprobe);
	free(m);
}

int fsp_res_matrix_add(struct fsp_res_matrix *m, struct fsp_res_doc *doc)
{
	struct fsp_res_doc **k;

	k = realloc(m->kernels, (m->nr + 1) * sizeof(*k));
	if (!k) {
		fsp_res_doc_free(doc);
		return -ENOMEM;
	}
	m->kernels = k;
	m->kernels[m->nr++] = doc;
	return 0;
}

struct json_object *fsp_res_matrix_json(const struct fsp_res_matrix *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	int i;

	json_object_object_add(o, "fsprobe", m->fsprobe ?
			       json_object_new_string(m->fsprobe) : NULL);
	for (i = 0; i < m->nr; i++)
		json_object_array_add(arr, fsp_res_doc_json(m->kernels[i]));
	json_object_object_add(o, "kernels", arr);
	return o;
}

int fsp_res_is_matrix(struct json_object *obj)
{
	return json_object_is_type(obj, json_type_object) &&
	       json_object_object_get_ex(obj, "kernels", NULL);
}

/* The matrix's own keys: "fsprobe" a string, "kernels" an array. */
static int matrix_keys(struct json_object *obj, const char *what,
		       struct json_object **arr, char *err, size_t errlen)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(obj, "fsprobe", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		snprintf(err, errlen, "%s: key \"fsprobe\": %s", what,
			 v ? "not a string" : "missing");
		return -EINVAL;
	}
	if (!json_object_object_get_ex(obj, "kernels", arr) ||
	    !json_object_is_type(*arr, json_type_array)) {
		snprintf(err, errlen, "%s: key \"kernels\": not an array",
			 what);
		return -EINVAL;
	}
	return 0;
}

int fsp_res_matrix_decode(struct json_object *obj, const char *what,
			  struct fsp_res_matrix **out, char *err,
			  size_t errlen)
{
	struct fsp_res_matrix *m;
	struct json_object *arr;
	char where[4096];
	size_t i, n;
	int ret;

	*out = NULL;
	ret = matrix_keys(obj, what, &arr, err, errlen);
	if (ret)
		return ret;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->fsprobe = strdup(json_object_get_string(
		     json_object_object_get(obj, "fsprobe"))))) {
		free(m);
		return -ENOMEM;
	}
	n = json_object_array_length(arr);
	for (i = 0; !ret && i < n; i++) {
		struct fsp_res_doc *doc;

		snprintf(where, sizeof(where), "%s: kernels[%zu]", what, i);
		ret = fsp_res_doc_decode(json_object_array_get_idx(arr, i),
					 where, &doc, err, errlen);
		if (!ret)
			ret = fsp_res_matrix_add(m, doc);
	}
	if (ret) {
		fsp_res_matrix_free(m);
		return ret;
	}
	*out = m;
	return 0;
}

int fsp_res_load_any(const char *path, struct fsp_res_doc **doc,
		     struct fsp_res_matrix **m, char *err, size_t errlen)
{
	struct json_object *obj;
	int ret;

	*doc = NULL;
	*m = NULL;
	obj = fsp_res_json_load(path, err, errlen, &ret);
	if (!obj)
		return ret;
	if (fsp_res_is_matrix(obj))
		ret = fsp_res_matrix_decode(obj, path, m, err, errlen);
	else
		ret = fsp_res_doc_decode(obj, path, doc, err, errlen);
	json_object_put(obj);
	return ret;
}
