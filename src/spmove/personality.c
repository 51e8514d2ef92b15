/* SPDX-License-Identifier: GPL-2.0-or-later */
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
	"Backups are named with a '~' at the end, or with the --suffix given, or\n"
	"else with SIMPLE_BACKUP_SUFFIX from the environment.  Which kind is made\n"
	"comes from --backup's CONTROL, or else from VERSION_CONTROL:\n"
	"\n"
	"  none, off       no backup at all, --backup notwithstanding\n"
	"  numbered, t     NAME.~N~, one more each time\n"
	"  existing, nil   numbered when NAME has numbered ones already, else simple\n"
	"  simple, never   NAME plus the suffix\n";

/* What --help says of --update's values. */
static const char update_note[] =
	"UPDATE says which files already in place are overwritten:\n"
	"  all        each of them (what happens without --update)\n"
	"  none       none; a file left alone is not a failure (as --no-clobber)\n"
	"  none-fail  none, and each one left alone is an error\n"
	"  older      only those older than their source (--update alone)\n";

static const char cp_options[] =
	"  -a, --archive\n"
	"         copy trees whole, links as links and every attribute: -dR\n"
	"         --preserve=all\n"
	"      --attributes-only\n"
	"         give DEST the attributes of SOURCE, but none of its data\n"
	"      --backup[=CONTROL]\n"
	"         keep a file about to be overwritten or removed as a backup\n"
	"  -b\n"
	"         --backup, with no CONTROL\n"
	"      --copy-contents\n"
	"         in a recursive copy, read FIFOs and devices as if regular files\n"
	"  -d\n"
	"         -P and --preserve=links together\n"
	"      --debug\n"
	"         say for each file how its data were copied (and act as -v)\n"
	"  -f, --force\n"
	"         a DEST that cannot be opened for writing is removed and\n"
	"         made anew (has no effect together with -n)\n"
	"  -i, --interactive\n"
	"         ask on the terminal before overwriting; cancels an earlier -n\n"
	"  -H\n"
	"         a symbolic link named on the command line is followed; those\n"
	"         met inside a tree are copied as links\n"
	"  -L, --dereference\n"
	"         follow each symbolic link and copy what it points to\n"
	"  -P, --no-dereference\n"
	"         copy symbolic links as links, never following them\n"
	"      --keep-directory-symlink\n"
	"         where DEST has a symbolic link to a directory, copy into that\n"
	"         directory instead of failing\n"
	"  -l, --link\n"
	"         make a hard link to each file rather than a copy of its data\n"
	"  -n, --no-clobber\n"
	"         leave every existing file as it is, quietly (an old option:\n"
	"         prefer --update=none or none-fail)\n"
	"  -p\n"
	"         keep mode, owner and times: --preserve=mode,ownership,timestamps\n"
	"      --preserve[=ATTR_LIST]\n"
	"         carry the attributes of ATTR_LIST over to the copy\n"
	"      --no-preserve=ATTR_LIST\n"
	"         do not carry these attributes over\n"
	"      --parents\n"
	"         recreate each SOURCE's whole path below DIRECTORY\n"
	"  -R, -r, --recursive\n"
	"         descend into directories and copy all they hold\n"
	"      --reflink[=WHEN]\n"
	"         whether to share the data blocks instead of copying them\n"
	"         (WHEN below)\n"
	"      --sparse=WHEN\n"
	"         whether DEST gets holes where its data are zeros (WHEN below)\n"
	"      --remove-destination\n"
	"         remove an existing DEST first, then create it (where -f\n"
	"         removes it only when opening it fails)\n"
	"      --strip-trailing-slashes\n"
	"         drop the slashes at the end of each SOURCE operand\n"
	"  -s, --symbolic-link\n"
	"         make a symbolic link to each file rather than a copy\n"
	"  -S, --suffix=SUFFIX\n"
	"         name simple backups with SUFFIX instead of '~'\n"
	"  -t, --target-directory=DIRECTORY\n"
	"         put the copies in DIRECTORY; every operand is a SOURCE\n"
	"  -T, --no-target-directory\n"
	"         never take DEST for a directory to copy into\n"
	"      --update[=UPDATE]\n"
	"         choose which existing files are overwritten: all, none,\n"
	"         none-fail, or older (the default of --update; see below)\n"
	"  -u\n"
	"         --update=older\n"
	"  -v, --verbose\n"
	"         print each file's name as it is copied\n"
	"  -x, --one-file-system\n"
	"         in a tree, do not copy what is under another file system\n"
	"  -Z\n"
	"         give each copy the default SELinux context of its place\n"
	"      --context[=CTX]\n"
	"         as -Z; with CTX, give each copy the SELinux or SMACK context\n"
	"         CTX\n"
	"      --help\n"
	"         print this text and exit\n"
	"      --version\n"
	"         print the version and exit\n"
	"\n"
	"ATTR_LIST names attributes, separated by commas: mode (the permission\n"
	"bits and any ACL), ownership (owner and group), timestamps, links (files\n"
	"linked together in SOURCE stay linked), context (the security context),\n"
	"xattr (extended attributes), or all.\n"
	"\n"
	"WHEN for --sparse: auto (the default) makes holes where SOURCE has them;\n"
	"always also turns long runs of zeros into holes; never writes every\n"
	"byte out.\n"
	"\n";

static const char cp_tail[] =
	"\n"
	"WHEN for --reflink: auto (also the default without the option) shares\n"
	"the blocks where the file system can, so that each side gets its own\n"
	"copy of a block only when it writes to it, and copies otherwise; always\n"
	"(also --reflink alone) fails where sharing is impossible; never copies.\n"
	"\n";

static const char cp_backup_tail[] =
	"\n"
	"With --force and --backup, %s accepts a SOURCE and a DEST that name the\n"
	"same regular file: the file is then kept as a backup first.\n";

static const char mv_options[] =
	"      --backup[=CONTROL]\n"
	"         keep a file about to be overwritten as a backup\n"
	"  -b\n"
	"         --backup, with no CONTROL\n"
	"      --debug\n"
	"         say for each file how its data were copied (and act as -v)\n"
	"      --exchange\n"
	"         swap SOURCE and DEST, atomically (both must exist)\n"
	"  -f, --force\n"
	"         overwrite without asking\n"
	"  -i, --interactive\n"
	"         ask on the terminal before overwriting\n"
	"  -n, --no-clobber\n"
	"         leave every existing file as it is, quietly (an old option:\n"
	"         prefer --update=none or none-fail)\n"
	"Of -f, -i and -n, the one given last wins.\n"
	"      --no-copy\n"
	"         fail where a rename is not possible, instead of copying\n"
	"      --strip-trailing-slashes\n"
	"         drop the slashes at the end of each SOURCE operand\n"
	"  -S, --suffix=SUFFIX\n"
	"         name simple backups with SUFFIX instead of '~'\n"
	"  -t, --target-directory=DIRECTORY\n"
	"         put what is moved in DIRECTORY; every operand is a SOURCE\n"
	"  -T, --no-target-directory\n"
	"         never take DEST for a directory to move into\n"
	"      --update[=UPDATE]\n"
	"         choose which existing files are overwritten: all, none,\n"
	"         none-fail, or older (the default of --update; see below)\n"
	"  -u\n"
	"         --update=older\n"
	"  -v, --verbose\n"
	"         print each file's name as it is moved\n"
	"  -Z, --context\n"
	"         give each file moved the default SELinux context of its place\n"
	"      --help\n"
	"         print this text and exit\n"
	"      --version\n"
	"         print the version and exit\n"
	"\n";

void personality_help(enum personality p)
{
	const char *name = cli_program, *page = personality_name(p);
	bool cp = p == PERSONALITY_SPCP;
	printf("Usage: %s [OPTION]... [-T] SOURCE DEST\n"
	       "  or:  %s [OPTION]... SOURCE... DIRECTORY\n"
	       "  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n",
	       name, name, name);
	fputs(cp ? "Make DEST a copy of SOURCE, or put copies of each SOURCE in DIRECTORY.\n"
		 : "Give SOURCE the name DEST, or move each SOURCE into DIRECTORY.\n",
	      stdout);
	fputs("\nA long option's argument is needed by its short form as well.\n", stdout);
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
