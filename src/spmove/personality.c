/* spmove: its two other names, spcp and spmv -- which one runs, and their
 * --help (GNU cp's and mv's usage lines and options, in our words). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "message.h"
#include "spmove.h"

enum personality personality_of(const char *name)
{
	if (!strcmp(name, "spcp") || !strcmp(name, "cp"))
		return PERSONALITY_SPCP;
	if (!strcmp(name, "spmv") || !strcmp(name, "mv"))
		return PERSONALITY_SPMV;
	return PERSONALITY_SPMOVE;
}

const char *personality_name(enum personality p)
{
	return p == PERSONALITY_SPCP ? "spcp" : p == PERSONALITY_SPMV ? "spmv" : "spmove";
}

/* What --help says of the backup suffix and of VERSION_CONTROL. */
static const char backup_note[] =
	"The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.\n"
	"The version control method may be selected via the --backup option or through\n"
	"the VERSION_CONTROL environment variable.  Here are the values:\n"
	"\n"
	"  none, off       never make backups (even if --backup is given)\n"
	"  numbered, t     make numbered backups\n"
	"  existing, nil   numbered if numbered backups exist, simple otherwise\n"
	"  simple, never   always make simple backups\n";

/* What --help says of --update's values. */
static const char update_note[] =
	"UPDATE controls which existing files in the destination are replaced.\n"
	"'all' (the default without --update) replaces every existing file.\n"
	"'none', like --no-clobber, replaces none, and skipping one is no failure.\n"
	"'none-fail' replaces none either, but reports each skipped file and fails.\n"
	"'older' (the default of --update) replaces a file only when it is older\n"
	"than its source.\n";

static const char cp_options[] =
	"  -a, --archive\n"
	"         same as -dR --preserve=all\n"
	"      --attributes-only\n"
	"         copy only the attributes, not the data\n"
	"      --backup[=CONTROL]\n"
	"         make a backup of each existing destination file\n"
	"  -b\n"
	"         like --backup but does not accept an argument\n"
	"      --copy-contents\n"
	"         copy contents of special files when recursive\n"
	"  -d\n"
	"         same as --no-dereference --preserve=links\n"
	"      --debug\n"
	"         explain how a file is copied.  Implies -v\n"
	"  -f, --force\n"
	"         if an existing destination file cannot be opened, remove it and try\n"
	"         again (this option is ignored when the -n option is also used)\n"
	"  -i, --interactive\n"
	"         prompt before overwrite (overrides a previous -n option)\n"
	"  -H\n"
	"         follow command-line symbolic links in SOURCE\n"
	"  -L, --dereference\n"
	"         always follow symbolic links in SOURCE\n"
	"  -P, --no-dereference\n"
	"         never follow symbolic links in SOURCE\n"
	"      --keep-directory-symlink\n"
	"         follow existing symlinks to directories\n"
	"  -l, --link\n"
	"         hard link files instead of copying\n"
	"  -n, --no-clobber\n"
	"         (deprecated) silently skip existing files.  See also --update\n"
	"  -p\n"
	"         same as --preserve=mode,ownership,timestamps\n"
	"      --preserve[=ATTR_LIST]\n"
	"         preserve the specified attributes\n"
	"      --no-preserve=ATTR_LIST\n"
	"         don't preserve the specified attributes\n"
	"      --parents\n"
	"         use full source file name under DIRECTORY\n"
	"  -R, -r, --recursive\n"
	"         copy directories recursively\n"
	"      --reflink[=WHEN]\n"
	"         control clone/CoW copies. See below\n"
	"      --remove-destination\n"
	"         remove each existing destination file before attempting to open it\n"
	"         (contrast with --force)\n"
	"      --sparse=WHEN\n"
	"         control creation of sparse files. See below\n"
	"      --strip-trailing-slashes\n"
	"         remove any trailing slashes from each SOURCE argument\n"
	"  -s, --symbolic-link\n"
	"         make symbolic links instead of copying\n"
	"  -S, --suffix=SUFFIX\n"
	"         override the usual backup suffix\n"
	"  -t, --target-directory=DIRECTORY\n"
	"         copy all SOURCE arguments into DIRECTORY\n"
	"  -T, --no-target-directory\n"
	"         treat DEST as a normal file\n"
	"      --update[=UPDATE]\n"
	"         control which existing files are updated;\n"
	"         UPDATE={all,none,none-fail,older(default)}\n"
	"  -u\n"
	"         equivalent to --update[=older].  See below\n"
	"  -v, --verbose\n"
	"         explain what is being done\n"
	"  -x, --one-file-system\n"
	"         stay on this file system\n"
	"  -Z\n"
	"         set SELinux security context of destination file to default type\n"
	"      --context[=CTX]\n"
	"         like -Z, or if CTX is specified then set the\n"
	"         SELinux or SMACK security context to CTX\n"
	"      --help\n"
	"         display this help and exit\n"
	"      --version\n"
	"         output version information and exit\n"
	"\n"
	"ATTR_LIST is a comma-separated list of attributes: 'mode' (permissions,\n"
	"with ACLs), 'ownership' (user and group), 'timestamps', 'links' (hard\n"
	"links), 'context' (security context), 'xattr' (extended attributes), or\n"
	"'all' for all of them.\n"
	"\n"
	"By default (--sparse=auto) the holes of a sparse SOURCE are kept in DEST.\n"
	"--sparse=always also makes holes of long runs of zero bytes;\n"
	"--sparse=never writes every byte.\n"
	"\n";

static const char cp_tail[] =
	"\n"
	"By default or with --reflink=auto, the data is cloned where the file system\n"
	"can share blocks (a copy made only when modified), and copied otherwise.\n"
	"--reflink[=always] fails where cloning is not possible; --reflink=never\n"
	"always copies.\n"
	"\n";

static const char cp_backup_tail[] =
	"\n"
	"As a special case, %s makes a backup of SOURCE when the force and backup\n"
	"options are given and SOURCE and DEST are the same name for an existing,\n"
	"regular file.\n";

static const char mv_options[] =
	"      --backup[=CONTROL]\n"
	"         make a backup of each existing destination file\n"
	"  -b\n"
	"         like --backup but does not accept an argument\n"
	"      --debug\n"
	"         explain how a file is copied.  Implies -v\n"
	"      --exchange\n"
	"         exchange source and destination\n"
	"  -f, --force\n"
	"         do not prompt before overwriting\n"
	"  -i, --interactive\n"
	"         prompt before overwrite\n"
	"  -n, --no-clobber\n"
	"         (deprecated) silently skip existing files.  See also --update\n"
	"If you specify more than one of -i, -f, -n, only the final one takes effect.\n"
	"      --no-copy\n"
	"         do not copy if renaming fails\n"
	"      --strip-trailing-slashes\n"
	"         remove any trailing slashes from each SOURCE argument\n"
	"  -S, --suffix=SUFFIX\n"
	"         override the usual backup suffix\n"
	"  -t, --target-directory=DIRECTORY\n"
	"         move all SOURCE arguments into DIRECTORY\n"
	"  -T, --no-target-directory\n"
	"         treat DEST as a normal file\n"
	"      --update[=UPDATE]\n"
	"         control which existing files are updated;\n"
	"         UPDATE={all,none,none-fail,older(default)}\n"
	"  -u\n"
	"         equivalent to --update[=older].  See below\n"
	"  -v, --verbose\n"
	"         explain what is being done\n"
	"  -Z, --context\n"
	"         set SELinux security context of destination file to default type\n"
	"      --help\n"
	"         display this help and exit\n"
	"      --version\n"
	"         output version information and exit\n"
	"\n";

void personality_help(enum personality p)
{
	const char *name = cli_program, *page = personality_name(p);
	bool cp = p == PERSONALITY_SPCP;
	printf("Usage: %s [OPTION]... [-T] SOURCE DEST\n"
	       "  or:  %s [OPTION]... SOURCE... DIRECTORY\n"
	       "  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n",
	       name, name, name);
	fputs(cp ? "Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.\n"
		 : "Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n",
	      stdout);
	fputs("\nMandatory arguments to long options are mandatory for short options too.\n",
	      stdout);
	fputs(cp ? cp_options : mv_options, stdout);
	fputs(update_note, stdout);
	if (cp)
		fputs(cp_tail, stdout);
	else
		fputs("\n", stdout);
	fputs(backup_note, stdout);
	if (cp)
		printf(cp_backup_tail, name);
	printf("\n%s copies through splice(2): see %s(1) and spmove(1).\n", name, page);
}
