/* warnscope GCC plugin: the compiler's own view of its warning options.

   Loaded with -fplugin into cc1 or cc1plus, it prints one JSON document on
   standard output (or into the file named by the "out" argument):

     options   the option table (every warning option and every alias of one):
               text, help, languages, alias target and arguments, negative
               form, argument kind and range, removed/ignored markers;
     states    the state of every warning option at three moments:
               "init_states" as compiled in from the option files' Init(),
               "option_states" once the command line is handled (when the
               plugin is initialised), and "states" at PLUGIN_START_UNIT,
               after the language's post-option code has decided what the
               option files leave to code (Init(-1));
     closures  for each requested list of flags, what GCC's own option
               handling (the generated *_handle_option_auto code reached
               through read_cmdline_option) turns on, starting from a state
               where every warning is off and nothing was given explicitly.

   Plugin arguments, for the plugin file warnscope_gccN.so (values are
   hex-encoded because GCC cuts a plugin argument at its first '='):
     -fplugin-arg-warnscope_gccN-table         include the option table
     -fplugin-arg-warnscope_gccN-closure=H.H   one closure of the flags H, H...
                                               (repeatable)
     -fplugin-arg-warnscope_gccN-out=H         write the JSON to file H
     -fplugin-arg-warnscope_gccN-crash         stop with an internal compiler
                                               error at the start of the unit,
                                               so that warnscope's crash
                                               reporting is tested for real

   A plugin is tied to the one GCC build it was compiled against, so the
   first thing plugin_init does is check that.  */

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tm.h"
#include "target.h"
#include "opts.h"
#include "options.h"
#include "langhooks.h"
#include "diagnostic.h"
#include "cpplib.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int plugin_is_GPL_compatible;

#define WS_STR2(x) #x
#define WS_STR(x) WS_STR2 (x)

/* Read by warnscope (analyzer/gcc_plugin.py) from the file itself, to refuse
   a plugin built for another GCC before even running it.  */
extern "C" const char warnscope_built_for[];
const char warnscope_built_for[]
  = "WARNSCOPE_BUILT_FOR=" WS_STR (GCCPLUGIN_VERSION_MAJOR) "."
    WS_STR (GCCPLUGIN_VERSION_MINOR) "." WS_STR (GCCPLUGIN_VERSION_PATCHLEVEL);

/* GCC 9 has no OPT_SPECIAL_warn_removed (a removed option is Ignore there) and its
   option_enabled takes no language mask.  */
#if GCCPLUGIN_VERSION_MAJOR >= 10
#define WS_IS_REMOVED(idx) ((idx) == OPT_SPECIAL_warn_removed)
#define WS_OPTION_ENABLED(idx, opts) option_enabled (idx, -1, opts)
#else
#define WS_IS_REMOVED(idx) false
#define WS_OPTION_ENABLED(idx, opts) option_enabled (idx, opts)
#endif
/* GCC 16 made the diagnostic kinds an enum class in namespace diagnostics.  */
#if GCCPLUGIN_VERSION_MAJOR >= 16
#define WS_DK_UNSPECIFIED static_cast<int> (diagnostics::kind::unspecified)
#else
#define WS_DK_UNSPECIFIED DK_UNSPECIFIED
#endif

extern struct cpp_reader *parse_in;

namespace {

struct closure_request
{
  std::vector<std::string> flags;
};

bool want_table = false;
bool want_crash = false;
std::string out_path;
std::vector<closure_request> closures;

/* ---------------------------------------------------------------- JSON */

std::string
json_str (const char *s)
{
  if (!s)
    return "null";
  std::string r = "\"";
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      switch (*p)
	{
	case '"': r += "\\\""; break;
	case '\\': r += "\\\\"; break;
	case '\n': r += "\\n"; break;
	case '\t': r += "\\t"; break;
	case '\r': r += "\\r"; break;
	default:
	  if (*p < 0x20)
	    {
	      char buf[8];
	      snprintf (buf, sizeof buf, "\\u%04x", *p);
	      r += buf;
	    }
	  else
	    r += (char) *p;
	}
    }
  return r + "\"";
}

std::string
json_str (const std::string &s)
{
  return json_str (s.c_str ());
}

/* ------------------------------------------------------- arguments */

bool
hex_decode (const char *hex, std::string *out)
{
  size_t n = strlen (hex);
  if (n % 2)
    return false;
  out->clear ();
  for (size_t i = 0; i < n; i += 2)
    {
      unsigned v;
      if (sscanf (hex + i, "%2x", &v) != 1)
	return false;
      *out += (char) v;
    }
  return true;
}

bool
parse_args (struct plugin_name_args *info)
{
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (!strcmp (key, "table"))
	want_table = true;
      else if (!strcmp (key, "crash"))
	want_crash = true;
      else if (!strcmp (key, "out") && value)
	{
	  if (!hex_decode (value, &out_path))
	    {
	      fprintf (stderr, "warnscope plugin: bad hex in out=%s\n", value);
	      return false;
	    }
	}
      else if (!strcmp (key, "closure") && value)
	{
	  closure_request req;
	  std::string v = value;
	  size_t start = 0;
	  while (start <= v.size ())
	    {
	      size_t dot = v.find ('.', start);
	      if (dot == std::string::npos)
		dot = v.size ();
	      std::string flag;
	      if (dot > start && !hex_decode (v.substr (start, dot - start).c_str (),
					      &flag))
		{
		  fprintf (stderr, "warnscope plugin: bad hex in closure=%s\n",
			   value);
		  return false;
		}
	      if (!flag.empty ())
		req.flags.push_back (flag);
	      start = dot + 1;
	    }
	  closures.push_back (req);
	}
      else
	{
	  fprintf (stderr, "warnscope plugin: unknown argument '%s'\n", key);
	  return false;
	}
    }
  return true;
}

/* ---------------------------------------------------- the option table */

bool
is_warning (size_t i)
{
  return (cl_options[i].flags & CL_WARNING) != 0;
}

/* A warning option, or an alias whose target is one (-Wformat, -pedantic).  */
bool
is_listed (size_t i)
{
  const cl_option &o = cl_options[i];
  if (is_warning (i))
    return true;
  return o.alias_target < N_OPTS && is_warning (o.alias_target);
}

const char *
var_type_name (int t)
{
  switch (t)
    {
#if GCCPLUGIN_VERSION_MAJOR >= 12
    case CLVC_INTEGER: return "integer";
#else
    case CLVC_BOOLEAN: return "boolean";
#endif
    case CLVC_EQUAL: return "equal";
    case CLVC_BIT_CLEAR: return "bit-clear";
    case CLVC_BIT_SET: return "bit-set";
    case CLVC_SIZE: return "size";
    case CLVC_STRING: return "string";
    case CLVC_ENUM: return "enum";
    case CLVC_DEFER: return "defer";
    }
  return "unknown";
}

std::string
languages_json (unsigned flags)
{
  std::string r = "[";
  bool first = true;
  for (unsigned i = 0; i < cl_lang_count; i++)
    if (flags & (1U << i))
      {
	r += (first ? "" : ", ") + json_str (lang_names[i]);
	first = false;
      }
  const struct { unsigned bit; const char *name; } classes[] = {
    { CL_COMMON, "Common" }, { CL_TARGET, "Target" }, { CL_DRIVER, "Driver" } };
  for (const auto &c : classes)
    if (flags & c.bit)
      {
	r += (first ? "" : ", ") + json_str (c.name);
	first = false;
      }
  return r + "]";
}

std::string
option_json (size_t i)
{
  const cl_option &o = cl_options[i];
  std::string r = "{\"index\": " + std::to_string (i);
  r += ", \"text\": " + json_str (o.opt_text);
  r += ", \"help\": " + json_str (o.help);
  r += ", \"languages\": " + languages_json (o.flags);
  r += ", \"warning\": " + std::string (is_warning (i) ? "true" : "false");
  r += ", \"undocumented\": "
       + std::string (o.flags & CL_UNDOCUMENTED ? "true" : "false");
  r += ", \"ignored\": "
       + std::string (o.alias_target == OPT_SPECIAL_ignore ? "true" : "false");
  r += ", \"removed\": "
       + std::string (WS_IS_REMOVED (o.alias_target) ? "true"
								 : "false");
  r += ", \"warn_message\": " + json_str (o.warn_message);
  r += ", \"alias_target\": "
       + (o.alias_target < N_OPTS ? json_str (cl_options[o.alias_target].opt_text)
				  : std::string ("null"));
  r += ", \"alias_arg\": " + json_str (o.alias_arg);
  r += ", \"neg_alias_arg\": " + json_str (o.neg_alias_arg);
  r += ", \"negative_alias\": "
       + std::string (o.cl_negative_alias ? "true" : "false");
  r += ", \"reject_negative\": "
       + std::string (o.cl_reject_negative ? "true" : "false");
  r += ", \"neg_index\": " + std::to_string (o.neg_index);
  r += ", \"joined\": " + std::string (o.flags & CL_JOINED ? "true" : "false");
  r += ", \"separate\": "
       + std::string (o.flags & CL_SEPARATE ? "true" : "false");
  r += ", \"missing_ok\": "
       + std::string (o.cl_missing_ok ? "true" : "false");
  r += ", \"uinteger\": " + std::string (o.cl_uinteger ? "true" : "false");
  r += ", \"byte_size\": " + std::string (o.cl_byte_size ? "true" : "false");
  r += ", \"host_wide_int\": "
       + std::string (o.cl_host_wide_int ? "true" : "false");
  r += ", \"range\": "
       + (o.range_min != -1 || o.range_max != -1
	    ? "[" + std::to_string (o.range_min) + ", "
		+ std::to_string (o.range_max) + "]"
	    : std::string ("null"));
  bool has_var = o.flag_var_offset != (unsigned short) -1;
  r += ", \"var_offset\": "
       + (has_var ? std::to_string (o.flag_var_offset) : std::string ("null"));
  r += ", \"var_type\": "
       + (has_var ? json_str (var_type_name (o.var_type)) : std::string ("null"));
  r += ", \"var_value\": " + std::to_string ((long long) o.var_value);
  r += ", \"enum_values\": ";
  if (has_var && o.var_type == CLVC_ENUM)
    {
      const cl_enum &e = cl_enums[o.var_enum];
      r += "[";
      for (const cl_enum_arg *a = e.values; a->arg; a++)
	r += (a == e.values ? "" : ", ") + json_str (a->arg);
      r += "]";
    }
  else
    r += "null";
  return r + "}";
}

/* ---------------------------------------------------- option states */

/* The state of option I in OPTS as text: "0"/"1" for switches, the level
   or size for integer options, the argument for enum and string options.
   Empty when the option holds no state of its own.  */
std::string
state_of (size_t i, gcc_options *opts)
{
  const cl_option &o = cl_options[i];
  void *var = option_flag_var (i, opts);
  if (!var)
    return "";
  switch (o.var_type)
    {
#if GCCPLUGIN_VERSION_MAJOR >= 12
    case CLVC_INTEGER:
#else
    case CLVC_BOOLEAN:
#endif
    case CLVC_SIZE:
      if (o.cl_host_wide_int)
	return std::to_string ((long long) *(HOST_WIDE_INT *) var);
      return std::to_string (*(int *) var);
    case CLVC_EQUAL:
    case CLVC_BIT_SET:
    case CLVC_BIT_CLEAR:
      return WS_OPTION_ENABLED (i, opts) > 0 ? "1" : "0";
    case CLVC_ENUM:
      {
	const cl_enum &e = cl_enums[o.var_enum];
	int v = e.get (var);
	for (const cl_enum_arg *a = e.values; a->arg; a++)
	  if (a->value == v && (a->flags & CL_ENUM_CANONICAL))
	    return a->arg;
	for (const cl_enum_arg *a = e.values; a->arg; a++)
	  if (a->value == v)
	    return a->arg;
	return std::to_string (v);
      }
    case CLVC_STRING:
      {
	const char *s = *(const char **) var;
	return s ? s : "";
      }
    case CLVC_DEFER:
      return "";
    }
  return "";
}

bool
has_state (size_t i)
{
  const cl_option &o = cl_options[i];
  return is_warning (i) && o.flag_var_offset != (unsigned short) -1
	 && o.var_type != CLVC_DEFER;
}

std::vector<std::string>
all_states (gcc_options *opts = &global_options)
{
  std::vector<std::string> s (cl_options_count);
  for (size_t i = 0; i < cl_options_count; i++)
    if (has_state (i))
      s[i] = state_of (i, opts);
  return s;
}

/* States once the command line is handled, before post-option code.  */
std::vector<std::string> option_states;

std::string
states_json (const std::vector<std::string> &states)
{
  std::string r = "{";
  bool first = true;
  for (size_t i = 0; i < cl_options_count; i++)
    if (has_state (i))
      {
	r += (first ? "\n  " : ",\n  ") + json_str (cl_options[i].opt_text)
	     + ": " + json_str (states[i]);
	first = false;
      }
  return r + "}";
}

/* ------------------------------------------------------- closures */

/* Turn every warning off and forget what was given explicitly, so that the
   enabling code applies to every option.  Enum and string options have no
   "off": they go back to their compiled-in initial values.  */
void
neutralize ()
{
  gcc_options init = global_options_init;
  for (size_t i = 0; i < cl_options_count; i++)
    {
      if (!has_state (i))
	continue;
      const cl_option &o = cl_options[i];
      if (o.var_type == CLVC_ENUM)
	{
	  memcpy (option_flag_var (i, &global_options),
		  option_flag_var (i, &init), cl_enums[o.var_enum].var_size);
	  continue;
	}
      if (o.var_type == CLVC_STRING)
	{
	  *(const char **) option_flag_var (i, &global_options)
	    = *(const char **) option_flag_var (i, &init);
	  continue;
	}
      set_option (&global_options, NULL, i, o.var_type == CLVC_SIZE ? -1 : 0,
		  NULL, WS_DK_UNSPECIFIED, UNKNOWN_LOCATION, NULL);
    }
  memset (&global_options_set, 0, sizeof global_options_set);
}

/* Apply FLAG as the command line would; returns an error text or "".  */
std::string
apply_flag (const std::string &flag, const cl_option_handlers &handlers,
	    unsigned lang_mask)
{
  const char *argv[2] = { "cc1", flag.c_str () };
  cl_decoded_option *decoded = NULL;
  unsigned count = 0;
  decode_cmdline_options_to_array_default_mask (2, argv, &decoded, &count);
  if (count != 2)
    return "takes a separate argument";
  cl_decoded_option &d = decoded[1];
  if (d.opt_index == OPT_SPECIAL_unknown)
    return "unknown option";
  if (d.opt_index == OPT_SPECIAL_ignore)
    return "";
  if (WS_IS_REMOVED (d.opt_index))
    return "";
  if (d.opt_index >= N_OPTS)
    return "not an option";
  if (!is_warning (d.opt_index))
    return "not a warning option";
  if (d.errors & CL_ERR_WRONG_LANG)
    return "not for this language";
  if (d.errors)
    return "invalid argument";
  read_cmdline_option (&global_options, &global_options_set, &d,
		       UNKNOWN_LOCATION, lang_mask, &handlers, global_dc);
  return "";
}

std::string
closure_json (const closure_request &req)
{
  gcc_options saved = global_options;
  gcc_options saved_set = global_options_set;
  cpp_options saved_cpp;
  cpp_options *cpp = parse_in ? cpp_get_options (parse_in) : NULL;
  if (cpp)
    saved_cpp = *cpp;

  cl_option_handlers handlers;
  set_default_handlers (&handlers, targetm.target_option.override);
  unsigned lang_mask = lang_hooks.option_lang_mask ();

  neutralize ();
  std::vector<std::string> before = all_states ();
  std::string errors = "{";
  bool first_error = true;
  for (const std::string &flag : req.flags)
    {
      std::string err = apply_flag (flag, handlers, lang_mask);
      if (!err.empty ())
	{
	  errors += (first_error ? "" : ", ") + json_str (flag) + ": "
		    + json_str (err);
	  first_error = false;
	}
    }
  errors += "}";
  std::vector<std::string> after = all_states ();

  global_options = saved;
  global_options_set = saved_set;
  if (cpp)
    *cpp = saved_cpp;

  std::string r = "{\"flags\": [";
  for (size_t k = 0; k < req.flags.size (); k++)
    r += (k ? ", " : "") + json_str (req.flags[k]);
  r += "], \"errors\": " + errors + ", \"enabled\": {";
  bool first = true;
  for (size_t i = 0; i < cl_options_count; i++)
    if (has_state (i) && after[i] != before[i])
      {
	r += (first ? "" : ", ") + json_str (cl_options[i].opt_text) + ": "
	     + json_str (after[i]);
	first = false;
      }
  return r + "}}";
}

/* ---------------------------------------------------- the report */

void
report (void *, void *)
{
  if (want_crash)
    internal_error ("warnscope plugin: crash requested");
  unsigned lang_mask = lang_hooks.option_lang_mask ();
  std::string r = "{\"format\": 1";
  r += ", \"gcc_version\": " + json_str (WS_STR (GCCPLUGIN_VERSION_MAJOR) "."
					 WS_STR (GCCPLUGIN_VERSION_MINOR) "."
					 WS_STR (GCCPLUGIN_VERSION_PATCHLEVEL));
  r += ", \"frontend\": " + json_str (lang_hooks.name);
  r += ", \"languages\": " + languages_json (lang_mask & CL_LANG_ALL);
  if (want_table)
    {
      r += ",\n \"options\": [";
      bool first = true;
      for (size_t i = 0; i < cl_options_count; i++)
	if (is_listed (i))
	  {
	    r += (first ? "\n  " : ",\n  ") + option_json (i);
	    first = false;
	  }
      r += "]";
    }
  gcc_options init = global_options_init;
  r += ",\n \"init_states\": " + states_json (all_states (&init));
  r += ",\n \"option_states\": " + states_json (option_states);
  r += ",\n \"states\": " + states_json (all_states ());
  r += ",\n \"closures\": [";
  for (size_t k = 0; k < closures.size (); k++)
    r += (k ? ",\n  " : "\n  ") + closure_json (closures[k]);
  r += "]}\n";

  FILE *f = out_path.empty () ? stdout : fopen (out_path.c_str (), "w");
  if (!f)
    {
      fprintf (stderr, "warnscope plugin: cannot write %s\n",
	       out_path.c_str ());
      return;
    }
  fputs (r.c_str (), f);
  if (f == stdout)
    fflush (f);
  else
    fclose (f);
}

} // namespace

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      fprintf (stderr,
	       "warnscope plugin: built for GCC %s, loaded into GCC %s; "
	       "a plugin only works with the GCC it was built for\n",
	       gcc_version.basever, version->basever);
      return 1;
    }
  if (!parse_args (info))
    return 1;
  option_states = all_states ();
  register_callback (info->base_name, PLUGIN_START_UNIT, report, NULL);
  return 0;
}
