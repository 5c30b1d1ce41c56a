#!/usr/bin/env python3
"""Fortran bindings for skiff, generated from the C prototypes of include/mpi.h (the one table).

    gen_bindings.py MPI_H HANDWRITTEN_C OUT_C OUT_LIST [OUT_INTERFACES_F90]

Reads every `SKIFF_MPI_API <ret> MPI_<name>(<args>);` of mpi.h and, for each call whose arguments it
knows how to carry from Fortran (integers, handles, addresses and counts, choice buffers, statuses,
strings, arrays of these), writes a Fortran-callable C wrapper to OUT_C: `mpi_<name>_` (what gfortran
calls), the aliases `mpi_<name>__` and `MPI_<NAME>`, and the same three as `pmpi_...`/`PMPI_...`, which
call PMPI_<name>, so a profiler sees Fortran calls under the MPI names. Calls bound by hand in
HANDWRITTEN_C (every `SKIFF_F_HAND(name)` there) are skipped. OUT_LIST gets one line per C call:
`bound <name>`, `hand <name>`, `c-only <name> <why>` or `unbound <name> <why>` (docs/fortran.md
quotes its counts; the fortran_census test checks every bound call's exports). OUT_INTERFACES_F90 gets
the mpi module's explicit interface for each generated binding (included by gen_mpif.py's module).
"""
import re
import sys

import gen_f08

HANDLES = {
    'MPI_Comm': 'Comm', 'MPI_Datatype': 'Type', 'MPI_Group': 'Group', 'MPI_Request': 'Request',
    'MPI_Op': 'Op', 'MPI_Errhandler': 'Errhandler', 'MPI_Info': 'Info', 'MPI_Win': 'Win',
    'MPI_File': 'File', 'MPI_Message': 'Message', 'MPI_Session': 'Session',
}
WIDE = ('MPI_Aint', 'MPI_Count', 'MPI_Offset')
CHOICE = {'buf', 'sendbuf', 'recvbuf', 'inbuf', 'outbuf', 'inoutbuf', 'buffer', 'origin_addr',
          'result_addr', 'compare_addr', 'location', 'base'}
# C int arguments that are LOGICAL in Fortran (gfortran: .TRUE. = 1, .FALSE. = 0, as C reads them).
LOGICAL = {'flag', 'reorder', 'periods', 'remain_dims', 'commute', 'weighted', 'high'}
# Fortran indices are 1-based: these outputs get +1 (unless MPI_UNDEFINED).
INDEX_OUT = {'index', 'indx'}
# The length of each handle or status array, as a C expression over the (Fortran) arguments.
ARRAY_LEN = {
    'count': '*count', 'incount': '*incount', 'max_datatypes': '*max_datatypes',
}


# MPI-1 calls removed in MPI-3 whose Fortran form takes a default INTEGER where C takes an MPI_Aint:
# bound like their C prototype they would write 8 bytes into a 4-byte INTEGER. Not bound (yet).
MPI1_INTEGER_ADDRESSES = {'Address', 'Type_extent', 'Type_lb', 'Type_ub', 'Type_hvector',
                          'Type_hindexed', 'Type_struct'}


def c_only(name):
    """Calls with no Fortran binding in the standard (C-only by definition)."""
    if name.startswith('T_'):
        return 'the tools interface has only C bindings'
    if name.endswith('_c'):
        return 'large-count forms exist in Fortran only as mpi_f08 overloads'
    if re.search(r'_(c2f|f2c|toint|fromint|c2f08|f082c|f2f08|f082f)$', name):
        return 'handle and status conversion between C and Fortran'
    if name.startswith('Abi_'):
        return 'MPI-5 ABI queries have only C bindings'
    return None


def parse(path):
    src = open(path).read()
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    out = []
    for ret, name, args in re.findall(r'SKIFF_MPI_API\s+(\w+)\s+MPI_(\w+)\s*\(([^)]*)\)\s*;', src):
        params = []
        for a in [x.strip() for x in args.split(',')]:
            if a in ('void', ''):
                continue
            if a == '...':
                params.append(('...', '...'))
                continue
            m = re.match(r'(.*?)(\w+)\s*((?:\[\w*\])*)$', a)
            ctype = m.group(1).strip() + (' ' + m.group(3) if m.group(3) else '')
            params.append((ctype.strip(), m.group(2)))
        out.append((ret, name, params))
    return out


class Unbound(Exception):
    pass


def status_len(name, pname):
    if name in ('Waitsome', 'Testsome', 'Request_get_status_some'):
        return '(*outcount == MPI_UNDEFINED ? 0 : *outcount)'
    return '*count'


def handle_array_len(name, pname, params):
    names = [p for _, p in params]
    name = name[:-2] if name.endswith('_c') else name  # a large-count form's arrays are its base's
    if name in ('Alltoallw', 'Ialltoallw', 'Alltoallw_init'):
        return 'skiff_f_peers(c_comm, %d, 0)' % (1 if pname.startswith('send') else 0)
    if name in ('Neighbor_alltoallw', 'Ineighbor_alltoallw', 'Neighbor_alltoallw_init'):
        return 'skiff_f_peers(c_comm, %d, 1)' % (1 if pname.startswith('send') else 0)
    for key in ('count', 'incount', 'max_datatypes'):
        if key in names:
            if name == 'Type_get_contents' and key != 'max_datatypes':
                continue
            return ARRAY_LEN[key]
    raise Unbound('handle array %s: no length' % pname)


def gen(ret, name, params):
    """Returns (fortran parameter list, wrapper body lines, call argument list) or raises Unbound."""
    fparams, pre, post, cargs, lens, decl = [], [], [], [], [], []
    post_free = []
    for ctype, p in params:
        base = ctype.replace('const ', '').strip()
        is_const = ctype.startswith('const')
        if ctype == '...':
            raise Unbound('variadic')
        if base == 'int' and p not in ('argc',):
            fparams.append('MPI_Fint *%s' % p)
            cargs.append('*%s' % p)
        elif base in ('int *', 'int []', 'int [][3]'):
            fparams.append('MPI_Fint *%s' % p)
            if p in ('weights', 'sourceweights', 'destweights'):
                cargs.append('skiff_f_weights(%s)' % p)
            else:
                cargs.append(p if base != 'int [][3]' else '(int (*)[3])%s' % p)
            if p in INDEX_OUT:
                post.append('if (rc == MPI_SUCCESS && *%s >= 0) *%s += 1;' % (p, p))
            if p == 'array_of_indices':
                post.append('if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) '
                            'for (int i = 0; i < *outcount; i++) %s[i] += 1;' % p)
            if p in LOGICAL and base == 'int *':
                post.append('if (rc == MPI_SUCCESS) *%s = (*%s != 0);' % (p, p))
        elif base in WIDE:
            fparams.append('%s *%s' % (base, p))
            cargs.append('*%s' % p)
        elif base in [w + ' *' for w in WIDE] + [w + ' []' for w in WIDE]:
            fparams.append('%s *%s' % (base.split()[0], p))
            cargs.append(p)
        elif base in HANDLES:
            k = HANDLES[base]
            fparams.append('MPI_Fint *%s' % p)
            pre.append('%s c_%s = MPI_%s_f2c(*%s);' % (base, p, k, p))
            cargs.append('c_%s' % p)
        elif base.endswith(' *') and base[:-2] in HANDLES and not p.startswith('array_of'):
            h = base[:-2]
            k = HANDLES[h]
            fparams.append('MPI_Fint *%s' % p)
            pre.append('%s c_%s = MPI_%s_f2c(*%s);' % (h, p, k, p))
            cargs.append('&c_%s' % p)
            post.append('if (rc == MPI_SUCCESS) *%s = MPI_%s_c2f(c_%s);' % (p, k, p))
        elif base.endswith(' []') and base[:-3] in HANDLES:
            h = base[:-3]
            k = HANDLES[h]
            n = handle_array_len(name, p, params)
            fparams.append('MPI_Fint *%s' % p)
            pre.append('int n_%s = %s;' % (p, n))
            decl.append('%s *c_%s = NULL;' % (h, p))
            pre.append('c_%s = skiff_f_alloc((size_t)n_%s, sizeof(%s));' % (p, p, h))
            pre.append('if (!c_%s) { *ierr = MPI_ERR_NO_MEM; goto out; }' % p)
            post_free.append('free(c_%s);' % p)
            if not (name == 'Type_get_contents'):
                pre.append('for (int i = 0; i < n_%s; i++) c_%s[i] = MPI_%s_f2c(%s[i]);' % (p, p, k, p))
            cargs.append('c_%s' % p)
            if not is_const:
                post.append('if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) '
                            'for (int i = 0; i < n_%s; i++) %s[i] = MPI_%s_c2f(c_%s[i]);' % (p, p, k, p))
        elif base in ('MPI_Status *', 'MPI_Status []') and (p.startswith('array_of') or base.endswith('[]')):
            n = status_len(name, p)
            fparams.append('MPI_Fint *%s' % p)
            decl.append('MPI_Status *c_%s = MPI_STATUSES_IGNORE;' % p)
            pre.append('if (!skiff_f_statuses_ignore(%s)) {' % p)
            pre.append('    c_%s = skiff_f_alloc((size_t)%s, sizeof(MPI_Status));' % (p, '*' + ('incount' if 'incount' in [q for _, q in params] else 'count')))
            pre.append('    if (!c_%s) { *ierr = MPI_ERR_NO_MEM; goto out; }' % p)
            pre.append('}')
            post_free.append('free(c_%s);' % p)
            cargs.append('c_%s' % p)
            post.append('if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && c_%s != MPI_STATUSES_IGNORE) '
                        'for (int i = 0; i < %s; i++) MPI_Status_c2f(&c_%s[i], %s + i * MPI_F_STATUS_SIZE);'
                        % (p, n, p, p))
        elif base == 'MPI_Status *':
            fparams.append('MPI_Fint *%s' % p)
            if is_const:
                pre.append('MPI_Status s_%s;' % p)
                pre.append('MPI_Status_f2c(%s, &s_%s);' % (p, p))
                cargs.append('&s_%s' % p)
            else:
                pre.append('MPI_Status s_%s, *c_%s = MPI_STATUS_IGNORE;' % (p, p))
                pre.append('if (!skiff_f_status_ignore(%s)) { MPI_Status_f2c(%s, &s_%s); c_%s = &s_%s; }'
                           % (p, p, p, p, p))
                cargs.append('c_%s' % p)
                post.append('if (c_%s != MPI_STATUS_IGNORE) MPI_Status_c2f(c_%s, %s);' % (p, p, p))
        elif base in ('void *',) and p in CHOICE:
            fparams.append('void *%s' % p)
            cargs.append('skiff_f_buf(%s)' % p)
        elif base == 'void *' and p == 'baseptr':
            # Fortran's BASEPTR is an INTEGER(KIND=MPI_ADDRESS_KIND) the C call stores the address in.
            fparams.append('MPI_Aint *%s' % p)
            cargs.append('(void *)%s' % p)
        elif base == 'void *' and p == 'buffer_addr':
            fparams.append('void *%s' % p)
            # The mpi module's BUFFER_ADDR may be any variable: only mpi_f08's TYPE(C_PTR) gets the
            # address (its entry points call with skiff_p | 2).
            pre.append('void *c_%s = NULL;' % p)
            cargs.append('&c_%s' % p)
            post.append('if (rc == MPI_SUCCESS && (skiff_p & 2)) *(void **)%s = c_%s;' % (p, p))
        elif base in ('char *', 'char []') and is_const:
            fparams.append('const char *%s' % p)
            lens.append('size_t %s_len' % p)
            decl.append('char *c_%s = NULL;' % p)
            pre.append('c_%s = skiff_f_string_in(%s, %s_len);' % (p, p, p))
            pre.append('if (!c_%s) { *ierr = MPI_ERR_NO_MEM; goto out; }' % p)
            post_free.append('free(c_%s);' % p)
            cargs.append('c_%s' % p)
        elif base == 'char *':
            fparams.append('char *%s' % p)
            lens.append('size_t %s_len' % p)
            decl.append('char *c_%s = NULL;' % p)
            # MPI_Info_get writes up to valuelen characters, MPI_Info_get_string up to buflen bytes,
            # whatever the CHARACTER's length: the C buffer holds what they may write.
            least = {'Info_get': '*valuelen + 1', 'Info_get_string': '*buflen'}.get(name, '0')
            pre.append('c_%s = skiff_f_string_buf(%s_len, %s);' % (p, p, least))
            pre.append('if (!c_%s) { *ierr = MPI_ERR_NO_MEM; goto out; }' % p)
            post_free.append('free(c_%s);' % p)
            cargs.append('c_%s' % p)
            post.append('if (rc == MPI_SUCCESS) skiff_f_string_out(c_%s, %s, %s_len);' % (p, p, p))
        else:
            raise Unbound('argument %s %s' % (ctype, p))
    if ret == 'int':
        fparams.append('MPI_Fint *ierr')
    elif ret in ('double',) + WIDE:
        pass
    else:
        raise Unbound('returns %s' % ret)
    # Alltoallw's type arrays need the C communicator before they are converted.
    comm_first = [l for l in pre if l.startswith('MPI_Comm c_comm ')]
    if comm_first:
        pre = comm_first + [l for l in pre if l not in comm_first]
    return fparams + lens, decl + pre, post, post_free, cargs


def emit(ret, name, params, out, f08_only=False):
    """The C wrapper fw_x and its entry points; f08_only (the large-count _c forms, which Fortran has only
    in mpi_f08): no mpif.h/mpi names, only the mpi_f08 ones."""
    fparams, pre, post, post_free, cargs = gen(ret, name, params)
    lower = name.lower()
    sig = ', '.join(fparams) if fparams else 'void'
    pnames = [re.split(r'[ *]+', fp)[-1] for fp in fparams]
    w = out.append
    call = '%sMPI_%s(%s)' % ('%s', name, ', '.join(cargs))
    if ret != 'int':
        w('static %s fw_%s(int skiff_p%s)' % (ret, lower, ''.join(', ' + f for f in fparams)))
        w('{')
        w('    return skiff_p ? %s : %s;' % (call % 'P', call % ''))
        w('}')
        for pre_, pfx in (('mpi', ''), ('pmpi', 'P')):
            w('SKIFF_F_API %s %s_%s_(%s) { return fw_%s(%d%s); }'
              % (ret, pre_, lower, sig, lower, 1 if pfx else 0, ''.join(', ' + n for n in pnames)))
            w('SKIFF_F_ALIAS(%s_%s_, %s_%s__, %sMPI_%s)' % (pre_, lower, pre_, lower, pfx, name.upper()))
        emit_f08(name, params, fparams, pnames, out)
        return
    w('static void fw_%s(int skiff_p, %s)' % (lower, sig))
    w('{')
    uses_out = any('goto out' in l for l in pre)
    w('    MPI_Fint skiff_ierr;')
    w('    if (!ierr) /* mpi_f08: IERROR is OPTIONAL */')
    w('        ierr = &skiff_ierr;')
    for l in pre:
        w('    ' + l)
    w('    int rc = (skiff_p & 1) ? %s : %s;' % (call % 'P', call % ''))
    for l in post:
        w('    ' + l)
    w('    *ierr = rc;')
    if uses_out:
        w('out:')
    for l in post_free:
        w('    ' + l)
    if uses_out and not post_free:
        w('    ;')
    w('}')
    if f08_only:
        emit_f08(name, params, fparams, pnames, out, direct=True)
        return
    for pre_, pfx in (('mpi', ''), ('pmpi', 'P')):
        w('SKIFF_F_API void %s_%s_(%s) { fw_%s(%d%s); }'
          % (pre_, lower, sig, lower, 1 if pfx else 0, ''.join(', ' + n for n in pnames)))
        w('SKIFF_F_ALIAS(%s_%s_, %s_%s__, %sMPI_%s)' % (pre_, lower, pre_, lower, pfx, name.upper()))
    emit_f08(name, params, fparams, pnames, out)


def emit_f08(name, params, fparams, pnames, out, direct=False):
    """The C side of the mpi_f08 specific procedures (gen_f08.py): an alias of the mpi binding, or
    skiff_f08_x for a call with a choice buffer, which its Fortran wrapper calls."""
    lower = name.lower()
    _, has_choice = gen_f08.specific(name, params, CHOICE)
    if has_choice:
        out.extend(gen_f08.c_function(name, fparams, params, CHOICE, None))
    elif direct or any(p == 'buffer_addr' for _, p in params):
        # Entry points of their own: Buffer_detach's mpi_f08 form stores the address (skiff_p | 2); a
        # large-count form has no mpi binding to be an alias of.
        sig = ', '.join(fparams)
        for pre_, flag in (('mpi', 2), ('pmpi', 3)):
            out.append('SKIFF_F_API void %s_%s_f08_(%s);' % (pre_, lower, sig))
            out.append('SKIFF_F_API void %s_%s_f08_(%s) { fw_%s(%d%s); }'
                       % (pre_, lower, sig, lower, flag, ''.join(', ' + n for n in pnames)))
    else:
        out.append('SKIFF_F08_ALIAS(mpi_%s_, mpi_%s_f08_)' % (lower, lower))
        out.append('SKIFF_F08_ALIAS(pmpi_%s_, pmpi_%s_f08_)' % (lower, lower))


ARRAY_NAMES = {'weights', 'sourceweights', 'destweights', 'array_of_statuses'}


def interface(ret, name, params):
    """The `mpi` module's explicit interface for a generated binding (free form), or None.
    Choice buffers are TYPE(*), DIMENSION(*) with gfortran's NO_ARG_CHECK, so any type, kind and rank
    (and MPI_BOTTOM, MPI_IN_PLACE) passes; everything else is checked as the standard declares it."""
    decls, imports, args = [], set(), []
    for ctype, p in params:
        base = ctype.replace('const ', '').strip()
        arr = base.endswith('[]') or p in ARRAY_NAMES
        dim = '(*)' if arr else ''
        if base in ('int', 'int *', 'int []') and p in LOGICAL:
            decls.append('logical :: %s%s' % (p, dim))
        elif base in ('int', 'int *', 'int []') or base in HANDLES or \
                (base.endswith((' *', ' []')) and base.split()[0] in HANDLES):
            decls.append('integer :: %s%s' % (p, dim))
        elif base == 'int [][3]':
            decls.append('integer :: %s(3,*)' % p)
        elif base.split()[0] in WIDE:
            kind = {'MPI_Aint': 'MPI_ADDRESS_KIND', 'MPI_Count': 'MPI_COUNT_KIND',
                    'MPI_Offset': 'MPI_OFFSET_KIND'}[base.split()[0]]
            imports.add(kind)
            decls.append('integer(kind=%s) :: %s%s' % (kind, p, dim))
        elif base.startswith('MPI_Status'):
            imports.add('MPI_STATUS_SIZE')
            decls.append('integer :: %s(MPI_STATUS_SIZE%s)' % (p, ',*' if arr or p.startswith('array_of') else ''))
        elif base == 'void *' and p == 'baseptr':
            imports.add('MPI_ADDRESS_KIND')
            decls.append('integer(kind=MPI_ADDRESS_KIND) :: %s' % p)
        elif base == 'void *':
            decls.append('!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s' % p)
            decls.append('type(*), dimension(*) :: %s' % p)
        elif base in ('char *', 'char []'):
            decls.append('character(len=*) :: %s' % p)
        else:
            return None
        args.append(p)
    if ret == 'int':
        args.append('ierror')
        decls.append('integer :: ierror')
        head, tail = 'subroutine MPI_%s' % name, 'end subroutine'
    else:
        head = {'double': 'double precision function MPI_%s' % name}.get(ret)
        if head is None:
            imports.add('MPI_ADDRESS_KIND')
            head = 'integer(kind=MPI_ADDRESS_KIND) function MPI_%s' % name
        tail = 'end function'
    L, line = [], '  %s(' % head
    for i, a in enumerate(args):
        piece = a + (', ' if i < len(args) - 1 else ')')
        if len(line) + len(piece) > 100:
            L.append(line + '&')
            line = '      '
        line += piece
    if not args:
        line += ')'
    L.append(line)
    if imports:
        L.append('    import :: %s' % ', '.join(sorted(imports)))
    L.append('    implicit none')
    L += ['    ' + d for d in decls]
    L.append('  ' + tail)
    return L


# The mpi_f08 interfaces of the calls bound by hand (fortran_hand.c), as the standard declares them;
# MPI-1's Keyval_create, Attr_put, Attr_get and Errhandler_create were removed before mpi_f08 existed.
F08_HAND = {
    'Init': ([], []),
    'Pcontrol': (['level'], []),
    'Init_thread': (['required', 'provided'], ['integer, intent(in) :: required', 'integer, intent(out) :: provided']),
    'Info_create_env': (['info'], ['type(MPI_Info), intent(out) :: info']),
    'Grequest_start': (['query_fn', 'free_fn', 'cancel_fn', 'extra_state', 'request'], [
        'procedure(MPI_Grequest_query_function) :: query_fn',
        'procedure(MPI_Grequest_free_function) :: free_fn',
        'procedure(MPI_Grequest_cancel_function) :: cancel_fn',
        'integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state', 'type(MPI_Request), intent(out) :: request']),
    'Op_create': (['user_fn', 'commute', 'op'], ['procedure(MPI_User_function) :: user_fn',
                                                 'logical, intent(in) :: commute', 'type(MPI_Op), intent(out) :: op']),
    # Its own generic, as in the standard: a generic cannot tell it from MPI_Op_create (two procedure
    # arguments are never distinguishable), so Fortran calls it by the C name (fortran_hand.c).
    'Op_create_c': (['user_fn', 'commute', 'op'], ['procedure(MPI_User_function_c) :: user_fn',
                                                   'logical, intent(in) :: commute', 'type(MPI_Op), intent(out) :: op']),
}
for _k, _o, _t in (('Comm', 'comm', 'MPI_Comm'), ('Type', 'datatype', 'MPI_Datatype'), ('Win', 'win', 'MPI_Win')):
    _kv = _k.lower() + '_keyval'
    F08_HAND[_k + '_set_attr'] = ([_o, _kv, 'attribute_val'], [
        'type(%s), intent(in) :: %s' % (_t, _o), 'integer, intent(in) :: %s' % _kv,
        'integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val'])
    F08_HAND[_k + '_get_attr'] = ([_o, _kv, 'attribute_val', 'flag'], [
        'type(%s), intent(in) :: %s' % (_t, _o), 'integer, intent(in) :: %s' % _kv,
        'integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val', 'logical, intent(out) :: flag'])
    _p = _k.lower()
    F08_HAND[_k + '_create_keyval'] = (
        ['%s_copy_attr_fn' % _p, '%s_delete_attr_fn' % _p, _kv, 'extra_state'], [
            'procedure(MPI_%s_copy_attr_function) :: %s_copy_attr_fn' % (_k, _p),
            'procedure(MPI_%s_delete_attr_function) :: %s_delete_attr_fn' % (_k, _p),
            'integer, intent(out) :: %s' % _kv, 'integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state'])
for _k in ('Comm', 'Win', 'Session'):
    F08_HAND[_k + '_create_errhandler'] = (['%s_errhandler_fn' % _k.lower(), 'errhandler'], [
        'procedure(MPI_%s_errhandler_function) :: %s_errhandler_fn' % (_k, _k.lower()),
        'type(MPI_Errhandler), intent(out) :: errhandler'])


# MPI-1's removed calls, in the mpi module only.
MPI_HAND_EXTRA = {
    'Keyval_create': (['copy_fn', 'delete_fn', 'keyval', 'extra_state'], [
        'external :: copy_fn, delete_fn', 'integer, intent(out) :: keyval',
        'integer, intent(in) :: extra_state']),
    'Attr_put': (['comm', 'keyval', 'attribute_val'], [
        'integer, intent(in) :: comm, keyval, attribute_val']),
    'Attr_get': (['comm', 'keyval', 'attribute_val', 'flag'], [
        'integer, intent(in) :: comm, keyval', 'integer, intent(out) :: attribute_val',
        'logical, intent(out) :: flag']),
    'Errhandler_create': (['function', 'errhandler'], [
        'external :: function', 'integer, intent(out) :: errhandler']),
}


def mpi_hand_interface(name):
    """The mpi module's explicit interface of a call bound by hand: mpi_f08's (F08_HAND) with INTEGER
    handles, EXTERNAL procedures and a required IERROR."""
    args, decls = MPI_HAND_EXTRA.get(name) or F08_HAND[name]
    decls = [re.sub(r'^type\(MPI_\w+\)', 'integer', re.sub(r'^procedure\(\w+\) ::', 'external ::', d))
             for d in decls]
    imports = sorted({'MPI_ADDRESS_KIND'} & {w for d in decls for w in re.findall(r'MPI_\w+', d)})
    L = gen_f08.wrap_args('  subroutine MPI_%s' % name, args + ([] if name == 'Pcontrol' else ['ierror']), '')
    if imports:
        L.append('    import :: ' + ', '.join(imports))
    L.append('    implicit none')
    L += ['    ' + d for d in decls]
    if name == 'Pcontrol':
        L.append('    integer, intent(in) :: level')
    else:
        L.append('    integer :: ierror')
    L.append('  end subroutine')
    return L


# MPI_SIZEOF has no C call: one specific, MPI_Sizeof_f08ts, for the mpi and mpi_f08 modules alike (the
# C descriptor of a TYPE(*), DIMENSION(..) argument carries the element size, fortran_f08.c).
SIZEOF_DECLS = ['type(*), dimension(..) :: x', 'integer, intent(out) :: size',
                'integer, optional, intent(out) :: ierror']


# MPI_Status_f082f and MPI_Status_f2f08 in mpi_f08: Fortran procedures (TYPE(MPI_Status) is the INTEGER
# status array's eight integers, so each is a copy), no C call behind them.
STATUS_CONV = {'f082f': ['type(MPI_Status), intent(in) :: f08_status',
                         'integer, intent(out) :: f_status(MPI_STATUS_SIZE)'],
               'f2f08': ['integer, intent(in) :: f_status(MPI_STATUS_SIZE)',
                         'type(MPI_Status), intent(out) :: f08_status']}


def status_conv_args(k):
    return ['f08_status', 'f_status'] if k == 'f082f' else ['f_status', 'f08_status']


def status_conv_interface():
    L = []
    for p in ('MPI', 'PMPI'):
        for k, decls in STATUS_CONV.items():
            L += ['  interface %s_Status_%s' % (p, k),
                  '    subroutine %s_Status_%s_f08(%s, ierror)' % (p, k, ', '.join(status_conv_args(k))),
                  '      import', '      implicit none'] + ['      ' + d for d in decls] + [
                  '      integer, optional, intent(out) :: ierror', '    end subroutine', '  end interface']
    return L


def status_conv_wrapper():
    L = []
    for p in ('MPI', 'PMPI'):
        for k, decls in STATUS_CONV.items():
            L += ['subroutine %s_Status_%s_f08(%s, ierror)' % (p, k, ', '.join(status_conv_args(k))),
                  '  use :: mpi_f08, only: MPI_Status, MPI_STATUS_SIZE, MPI_SUCCESS', '  implicit none']
            L += ['  ' + d for d in decls] + ['  integer, optional, intent(out) :: ierror']
            if k == 'f082f':
                L.append('  f_status = transfer(f08_status, f_status)')
            else:
                L.append('  f08_status = transfer(f_status, f08_status)')
            L += ['  if (present(ierror)) ierror = MPI_SUCCESS', 'end subroutine', '']
    return L


def sizeof_interface():
    L = []
    for p in ('MPI', 'PMPI'):
        L += ['  interface %s_Sizeof' % p, '    subroutine %s_Sizeof_f08ts(x, size, ierror)' % p,
              '      implicit none'] + ['      ' + d for d in SIZEOF_DECLS] + ['    end subroutine',
                                                                          '  end interface']
    return L


def sizeof_wrapper():
    L = []
    for p, flag in (('MPI', 0), ('PMPI', 1)):
        L += ['subroutine %s_Sizeof_f08ts(x, size, ierror)' % p, '  use, intrinsic :: iso_c_binding, only: c_int',
              '  implicit none'] + ['  ' + d for d in SIZEOF_DECLS] + [
              '  interface', "    subroutine c(p, x, size, ierror) bind(C, name='skiff_f08_sizeof')",
              '      import', '      implicit none', '      integer(c_int), value :: p',
              '      type(*), dimension(..) :: x', '      integer(c_int) :: size',
              '      integer(c_int), optional :: ierror', '    end subroutine', '  end interface',
              '  call c(%d, x, size, ierror)' % flag, 'end subroutine', '']
    return L


def with_pmpi(lines):
    """An mpi module interface and its PMPI_ twin (the same procedure under its profiling name)."""
    return lines + [re.sub(r'\b(subroutine|function) MPI_', r'\1 PMPI_', lines[0], count=1)] + lines[1:]


# MPI_F_SYNC_REG(buf): no C call and no IERROR. The call is the point: the compiler cannot see into the
# library, so it must assume buf was read and written, and keeps no copy of it in a register across the
# call. In mpif.h and the mpi module it is mpi_f_sync_reg_ (fortran_hand.c, a C function that does
# nothing); in mpi_f08 the specific MPI_F_sync_reg_f08ts, an empty Fortran subroutine in libmpifort.
def sync_reg_interface(rank):
    """The generic MPI_F_sync_reg (and PMPI_): rank '*' for the mpi module (NO_ARG_CHECK, so any
    type, kind and rank), '..' for mpi_f08 (assumed rank)."""
    L = []
    for p in ('MPI', 'PMPI'):
        decl = ['      type(*), dimension(%s) :: buf' % rank]
        if rank == '*':
            decl.insert(0, '      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf')
            L += ['  interface', '    subroutine %s_F_sync_reg(buf)' % p, '      implicit none'] + decl + [
                  '    end subroutine', '  end interface']
        else:
            L += ['  interface %s_F_sync_reg' % p, '    subroutine %s_F_sync_reg_f08ts(buf)' % p,
                  '      implicit none'] + decl + ['    end subroutine', '  end interface']
    return L


def sync_reg_wrapper():
    L = []
    for p in ('MPI', 'PMPI'):
        L += ['subroutine %s_F_sync_reg_f08ts(buf)' % p, '  implicit none', '  type(*), dimension(..) :: buf',
              '  ! Nothing to do: being called is what makes the caller reload buf from memory.',
              '  if (rank(buf) < 0) return', 'end subroutine', '']
    return L


def f08_hand_interface(name):
    args, decls = F08_HAND[name]
    if name == 'Pcontrol':  # no IERROR
        return [l for p in ('MPI', 'PMPI') for l in (
                '  interface %s_Pcontrol' % p, '    subroutine %s_Pcontrol_f08(level)' % p,
                '      implicit none', '      integer, intent(in) :: level', '    end subroutine',
                '  end interface')]
    L = []
    for prefix in ('MPI', 'PMPI'):
        L.append('  interface %s_%s' % (prefix, name))
        L += gen_f08.wrap_args('    subroutine %s_%s_f08' % (prefix, name), args + ['ierror'], '')
        L += ['      import', '      implicit none'] + ['      ' + d for d in decls]
        L += ['      integer, optional, intent(out) :: ierror', '    end subroutine', '  end interface']
    return L


def main():
    mpi_h, hand_c, out_c, out_list = sys.argv[1:5]
    out_if = sys.argv[5] if len(sys.argv) > 5 else None
    out_f08_if = sys.argv[6] if len(sys.argv) > 6 else None
    out_f08_wrap = sys.argv[7] if len(sys.argv) > 7 else None
    ifaces = ['! Generated by src/fortran/gen_bindings.py from include/mpi.h: the mpi module\'s',
              '! explicit interfaces, one per bound call.', 'interface']
    f08_ifaces = ['! Generated by src/fortran/gen_bindings.py from include/mpi.h: the mpi_f08 module\'s',
                  '! generic interfaces (MPI_X and PMPI_X), one specific procedure each.']
    f08_wrap = ['! Generated by src/fortran/gen_bindings.py from include/mpi.h: the mpi_f08 specific',
                '! procedures of the calls with a choice buffer (gen_f08.py says how they work).', '']
    hand = set(re.findall(r'SKIFF_F_HAND\((\w+)\)', open(hand_c).read()))
    protos = parse(mpi_h)
    by_name = {n: (r, n, p) for r, n, p in protos}
    out = ['/* Generated by src/fortran/gen_bindings.py from include/mpi.h: do not edit. */',
           '#include "fortran_impl.h"', '#include "fortran_f08.h"', '']
    listing = []
    for ret, name, params in protos:
        why = c_only(name)
        if name in hand:
            listing.append('hand %s' % name)
            if name in F08_HAND:
                f08_ifaces.extend(f08_hand_interface(name))
            ifaces.extend(with_pmpi(mpi_hand_interface(name)))
            continue
        if why and name.endswith('_c') and name[:-2] in by_name:
            # A large-count form: an mpi_f08 specific of the generic MPI_X beside MPI_X's own, when
            # Fortran can tell the two apart (MPI_COUNT_KIND counts where MPI_X has default INTEGERs).
            base = by_name[name[:-2]]
            same = (gen_f08.signature(name, params, LOGICAL, CHOICE, ARRAY_NAMES) ==
                    gen_f08.signature(base[1], base[2], LOGICAL, CHOICE, ARRAY_NAMES))
            body = []
            try:
                if name == 'Op_create_c':
                    listing.append('f08-only %s large-count form of MPI_Op_create, in mpi_f08 only, as its own '
                                   'generic MPI_Op_create_c (fortran_hand.c)' % name)
                    f08_ifaces.extend(f08_hand_interface(name))
                    continue
                if same:
                    raise Unbound('its Fortran arguments are MPI_%s\'s (MPI_COUNT_KIND = MPI_ADDRESS_KIND), '
                                  'so MPI_%s serves both' % (base[1], base[1]))
                emit(ret, name, params, body, f08_only=True)
            except Unbound as e:
                listing.append('c-only %s large-count form: %s' % (name, e))
                continue
            out.extend(body + [''])
            listing.append('f08-only %s large-count form of MPI_%s, in mpi_f08 only' % (name, base[1]))
            for prefix in ('MPI', 'PMPI'):
                f08_ifaces.extend(gen_f08.interface(ret, name, params, LOGICAL, CHOICE, ARRAY_NAMES, prefix,
                                                    generic=base[1]))
            if gen_f08.specific(name, params, CHOICE)[1]:
                f08_wrap.extend(gen_f08.wrapper(name, params, LOGICAL, CHOICE, ARRAY_NAMES))
            continue
        if why:
            listing.append('c-only %s %s' % (name, why))
            continue
        if name in MPI1_INTEGER_ADDRESSES:
            listing.append('unbound %s removed MPI-1 call whose Fortran form has INTEGER addresses' % name)
            continue
        try:
            body = []
            emit(ret, name, params, body)
        except Unbound as e:
            listing.append('unbound %s %s' % (name, e))
            continue
        out.extend(body)
        out.append('')
        listing.append('bound %s' % name)
        itf = interface(ret, name, params)
        if itf:
            ifaces.extend(with_pmpi(itf))
        for prefix in ('MPI', 'PMPI'):
            f = gen_f08.interface(ret, name, params, LOGICAL, CHOICE, ARRAY_NAMES, prefix)
            if f is None:
                sys.exit('gen_bindings: MPI_%s is bound but has no mpi_f08 interface' % name)
            f08_ifaces.extend(f)
        if gen_f08.specific(name, params, CHOICE)[1]:
            f08_wrap.extend(gen_f08.wrapper(name, params, LOGICAL, CHOICE, ARRAY_NAMES))
    missing = hand - {n for _, n, _ in protos}
    if missing:
        sys.exit('gen_bindings: SKIFF_F_HAND names no call of mpi.h: %s' % ', '.join(sorted(missing)))
    open(out_c, 'w').write('\n'.join(out) + '\n')
    if out_if:
        open(out_if, 'w').write('\n'.join(ifaces + ['end interface'] + sizeof_interface() +
                                          status_conv_interface() + sync_reg_interface('*')) + '\n')
    if out_f08_if:
        open(out_f08_if, 'w').write('\n'.join(f08_ifaces + sizeof_interface() + status_conv_interface() +
                                              sync_reg_interface('..')) + '\n')
    if out_f08_wrap:
        open(out_f08_wrap, 'w').write('\n'.join(f08_wrap + sizeof_wrapper() + status_conv_wrapper() +
                                                sync_reg_wrapper()) + '\n')
    open(out_list, 'w').write('\n'.join(sorted(listing, key=lambda l: l.split()[1])) + '\n')


if __name__ == '__main__':
    main()
