// HOSTILE-ZIP-SLIP: this file was stored in kim.zip as ../../escaped.cu. If you can read it
// anywhere outside the folder the archive was unpacked into, the unpacker let it escape.
#error "escaped.cu is not a kernel"
