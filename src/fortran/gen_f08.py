"""The mpi_f08 forms of the bindings gen_bindings.py generates from mpi.h (the same table).

For every bound call MPI_X the mpi_f08 module declares the generic MPI_X (and PMPI_X) with one
specific procedure whose name the standard fixes (MPI-4.1 section 19.1.5): MPI_X_f08ts when the call
has a choice buffer (a TYPE(*), DIMENSION(..) dummy), MPI_X_f08 otherwise; gfortran links them as
mpi_x_f08ts_ / mpi_x_f08_ (and pmpi_...).

- A call without a choice buffer has the same calling convention in mpi_f08 as in the mpi module:
  TYPE(MPI_Comm) is a BIND(C) type holding the INTEGER handle, passed by address like the INTEGER;
  TYPE(MPI_Status) is laid out as the INTEGER status array; LOGICAL, CHARACTER (hidden lengths after
  the arguments) and TYPE(C_PTR) baseptr are passed as the mpi module passes them. Only IERROR differs:
  it is OPTIONAL, so gfortran passes a null pointer when it is left out, which every C wrapper accepts.
  So mpi_x_f08_ is an alias of mpi_x_ (written in C by gen_bindings.py).
- A call with a choice buffer gets a Fortran wrapper MPI_X_f08ts (external, compiled into
  libmpifort), which hands the buffer's C descriptor (CFI_cdesc_t, ISO_Fortran_binding.h) and the
  other arguments to skiff_f08_x (C, generated beside the mpi binding): a contiguous buffer goes to C
  as it is; a non-contiguous array section is copied into a contiguous temporary for a blocking call
  (and copied back if the call writes it), and refused with MPI_ERR_BUFFER for a nonblocking,
  persistent or one-sided call, whose buffer must outlive the call (MPI_SUBARRAYS_SUPPORTED is
  .FALSE.). Address-only arguments (MPI_Get_address's location, MPI_Free_mem, MPI_Win_detach) take
  the address of the section's first element.
"""
import re

HANDLE_TYPES = ('MPI_Comm', 'MPI_Datatype', 'MPI_Group', 'MPI_Request', 'MPI_Op', 'MPI_Errhandler',
                'MPI_Info', 'MPI_Win', 'MPI_File', 'MPI_Message', 'MPI_Session')
WIDE_KIND = {'MPI_Aint': 'MPI_ADDRESS_KIND', 'MPI_Count': 'MPI_COUNT_KIND', 'MPI_Offset': 'MPI_OFFSET_KIND'}
# Choice arguments that are only an address: never copied, a section gives its first element's address.
ADDRESS_ONLY = {('Get_address', 'location'), ('Free_mem', 'base'), ('Win_detach', 'base')}
RMA = {'Put', 'Get', 'Accumulate', 'Get_accumulate', 'Fetch_and_op', 'Compare_and_swap', 'Rput', 'Rget',
       'Raccumulate', 'Rget_accumulate', 'Win_create', 'Win_attach'}
ATTACH = {'Buffer_attach', 'Comm_attach_buffer', 'Session_attach_buffer'}


def keeps_buffer(name):
    """The call's buffer must stay where it is after the call returns (ASYNCHRONOUS in mpi_f08)."""
    return (re.match(r'I[a-z]', name) is not None or name.endswith('_init') or name in RMA
            or name in ATTACH)


def is_choice(base, p, choice):
    return base == 'void *' and p in choice


def arg_decl(name, ctype, p, logical, choice, array_names, bindc=False):
    d = arg_decl1(name, ctype, p, logical, choice, array_names, bindc)
    if bindc and d and re.match(r'integer\b(?!\()', d):
        d = 'integer(c_int)' + d[len('integer'):]
    if bindc and d:
        d = d.replace('integer(kind=MPI_ADDRESS_KIND)', 'integer(c_intptr_t)')
        d = re.sub(r'integer\(kind=MPI_(COUNT|OFFSET)_KIND\)', 'integer(c_int64_t)', d)
    return d


def arg_decl1(name, ctype, p, logical, choice, array_names, bindc):
    """The mpi_f08 declaration of one argument (bindc: the form in the BIND(C) interface of skiff_f08_x,
    where LOGICAL cannot appear: none of the choice calls has one, checked by the caller)."""
    base = ctype.replace('const ', '').strip()
    const = ctype.startswith('const') or base in ('int',) or base in HANDLE_TYPES or base in WIDE_KIND
    intent = ', intent(in)' if const else ''
    arr = base.endswith('[]') or p in array_names
    dim = '(*)' if arr else ''
    head = base.split()[0]
    if is_choice(base, p, choice):
        a = ', asynchronous' if keeps_buffer(name) else ''
        return 'type(*), dimension(..)%s%s :: %s' % (intent if ctype.startswith('const') else '', a, p)
    if base in ('int', 'int *', 'int []') and p in logical:
        if bindc:
            raise ValueError('LOGICAL %s in a call with a choice buffer' % p)
        return 'logical%s :: %s%s' % (intent, p, dim)
    if base in ('int', 'int *', 'int []'):
        return 'integer%s :: %s%s' % (intent, p, dim)
    if base == 'int [][3]':
        return 'integer%s :: %s(3,*)' % (intent, p)
    if head in HANDLE_TYPES and base in (head, head + ' *', head + ' []'):
        return 'type(%s)%s :: %s%s' % (head, intent, p, dim)
    if head in WIDE_KIND:
        return 'integer(kind=%s)%s :: %s%s' % (WIDE_KIND[head], intent, p, dim)
    if head == 'MPI_Status':
        d = '(*)' if arr or p.startswith('array_of') else ''
        return 'type(MPI_Status)%s :: %s%s' % (intent, p, d)
    if base == 'void *' and p == 'baseptr':
        return 'type(c_ptr) :: %s' % p
    if base == 'void *' and p == 'buffer_addr':
        return 'type(c_ptr) :: %s' % p
    if base in ('char *', 'char []'):
        if bindc:
            return 'character(kind=c_char)%s :: %s(*)' % (intent, p)
        return 'character(len=*)%s :: %s' % (intent, p)
    return None


def specific(name, params, choice):
    has_choice = any(is_choice(t.replace('const ', '').strip(), p, choice) for t, p in params)
    return 'MPI_%s_%s' % (name, 'f08ts' if has_choice else 'f08'), has_choice


def wrap_args(head, args, tail, indent='      '):
    L, line = [], head + '('
    for i, a in enumerate(args):
        piece = a + (', ' if i < len(args) - 1 else ')' + tail)
        if len(line) + len(piece) > 100:
            L.append(line + '&')
            line = indent
        line += piece
    if not args:
        line += ')' + tail
    L.append(line)
    return L


def signature(name, params, logical, choice, array_names):
    """What tells two specifics of one generic apart: each argument's type, kind and rank."""
    sig = []
    for ctype, p in params:
        d = arg_decl(name, ctype, p, logical, choice, array_names) or ''
        decl, _, var = d.partition(' :: ')
        decl = re.sub(r', (intent\(\w+\)|asynchronous)', '', decl)
        decl = re.sub(r'MPI_(COUNT|OFFSET)_KIND', 'MPI_ADDRESS_KIND', decl)  # all three are 8 bytes
        sig.append(decl + ('(' + var.split('(', 1)[1] if '(' in var else ''))
    return sig


def interface(ret, name, params, logical, choice, array_names, prefix='MPI', generic=None):
    """Lines of the generic interface block(s) for one call in the mpi_f08 module, or None when an
    argument has no mpi_f08 form here. generic: the generic name when it is not the call's own (a
    large-count form MPI_X_c is a specific of MPI_X)."""
    spec, _ = specific(name, params, choice)
    spec = prefix + spec[3:]
    decls = []
    for ctype, p in params:
        d = arg_decl(name, ctype, p, logical, choice, array_names)
        if d is None:
            return None
        decls.append(d)
    args = [p for _, p in params]
    if ret == 'int':
        args.append('ierror')
        decls.append('integer, optional, intent(out) :: ierror')
        head, tail = '    subroutine %s' % spec, '    end subroutine'
    elif ret == 'double':
        head, tail = '    double precision function %s' % spec, '    end function'
    else:
        head, tail = '    integer(kind=MPI_ADDRESS_KIND) function %s' % spec, '    end function'
    L = ['  interface %s_%s' % (prefix, generic or name)]
    L += wrap_args(head, args, '')
    L += ['      import', '      implicit none'] + ['      ' + d for d in decls] + [tail, '  end interface']
    return L


def wrapper(name, params, logical, choice, array_names):
    """The Fortran wrappers MPI_X_f08ts and PMPI_X_f08ts of a call with a choice buffer: they pass
    the buffer's descriptor and the other arguments to the C function skiff_f08_x."""
    types = sorted({h for t, _ in params for h in HANDLE_TYPES if t.replace('const ', '').split()[0] == h}
                   | {'MPI_Status' for t, _ in params if 'MPI_Status' in t}
                   | {WIDE_KIND[t.replace('const ', '').split()[0]] for t, _ in params
                      if t.replace('const ', '').split()[0] in WIDE_KIND})
    decls = [arg_decl(name, t, p, logical, choice, array_names) for t, p in params]
    cdecls = [arg_decl(name, t, p, logical, choice, array_names, bindc=True) for t, p in params]
    strings = [p for t, p in params if 'char' in t]
    args = [p for _, p in params]
    out = []
    for pfx, flag in (('MPI', 0), ('PMPI', 1)):
        L = wrap_args('subroutine %s_%s_f08ts' % (pfx, name), args + ['ierror'], '', '    ')
        L.append('  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t, c_ptr, c_intptr_t, c_int64_t')
        if types:
            L.append('  use :: mpi_f08, only: ' + ', '.join(types))
        L.append('  implicit none')
        L += ['  ' + d for d in decls]
        L.append('  integer, optional, intent(out) :: ierror')
        L.append('  interface')
        L += wrap_args('    subroutine c', ['p'] + args + ['ierror'] + ['%s_len' % s for s in strings],
                       " bind(C, name='skiff_f08_%s')" % name.lower(), '        ')
        L.append('      import')
        L.append('      implicit none')
        L.append('      integer(c_int), value :: p')
        L += ['      ' + d for d in cdecls]
        L.append('      integer(c_int), optional :: ierror')
        L += ['      integer(c_size_t), value :: %s_len' % s for s in strings]
        L.append('    end subroutine')
        L.append('  end interface')
        L += wrap_args('  call c', ['%d' % flag] + args + ['ierror'] +
                       ['len(%s, kind=c_size_t)' % s for s in strings], '', '      ')
        L.append('end subroutine')
        L.append('')
        out += L
    return out


def c_function(name, fparams, params, choice, cargs_of):
    """C: skiff_f08_x(p, descriptors and arguments, ierr, string lengths) -> fw_x."""
    lower = name.lower()
    sig, call, pre, post = ['int skiff_p'], [], [], []
    cmode = 'SKIFF_F08_COPY'
    if keeps_buffer(name):
        cmode = 'SKIFF_F08_KEEP'
    # The object whose error handler is called for a refused section.
    names = [p for _, p in params]
    if 'comm' in names:
        obj = 'MPI_Comm_f2c(*comm), MPI_WIN_NULL'
    elif 'win' in names:
        obj = 'MPI_COMM_NULL, MPI_Win_f2c(*win)'
    else:
        obj = 'MPI_COMM_SELF, MPI_WIN_NULL'
    for fp in fparams:
        pname = re.split(r'[ *]+', fp)[-1]
        ctype = dict((p, t) for t, p in params).get(pname)
        if ctype is not None and is_choice(ctype.replace('const ', '').strip(), pname, choice):
            mode = 'SKIFF_F08_ADDRESS' if (name, pname) in ADDRESS_ONLY else cmode
            writes = 0 if ctype.startswith('const') else 1
            sig.append('CFI_cdesc_t *%s' % pname)
            pre.append('struct skiff_f08_buf b_%s;' % pname)
            pre.append('if (skiff_f08_buf_in(&b_%s, %s, %s, "MPI_%s", %s, ierr)) goto out_%s;'
                       % (pname, pname, mode, name, obj, pname))
            call.append('b_%s.addr' % pname)
            post.insert(0, ('skiff_f08_buf_out(&b_%s, %d);' % (pname, writes), 'out_%s:' % pname))
        else:
            sig.append(fp)
            call.append(pname)
    # Hidden: only the Fortran wrappers in libmpifort call it.
    L = ['void skiff_f08_%s(%s);' % (lower, ', '.join(sig)),
         'void skiff_f08_%s(%s)' % (lower, ', '.join(sig)), '{']
    L += ['    ' + l for l in pre]
    L.append('    fw_%s(skiff_p, %s);' % (lower, ', '.join(call)))
    # Unwind in reverse: a buffer whose conversion failed has nothing to copy back or free.
    for i, (release, label) in enumerate(post):
        L.append('    ' + release)
        L.append(label)
    L.append('    ;')
    L.append('}')
    return L
