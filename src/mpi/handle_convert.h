/* Handles as integers (MPI_X_toint/fromint, MPI_X_c2f/f2c): see handle_convert.c. */
#ifndef SKIFF_HANDLE_CONVERT_H
#define SKIFF_HANDLE_CONVERT_H

/* Gives the tables of user-handle integers back to the C library (MPI_Finalize): the handles they name
 * are gone, and from then on every user handle converts to its kind's null value. */
void skiff_handles_finalize(void);

#endif
