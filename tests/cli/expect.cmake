# Runs one command and checks its exit code and output:
#   cmake -DCOMMAND="program|arg|arg" -DEXIT_CODE=1 [-DSTDOUT=regex] [-DSTDERR=regex] [-DWORKING_DIRECTORY=dir] -P expect.cmake
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND}
  WORKING_DIRECTORY ${WORKING_DIRECTORY}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(report "command: ${COMMAND}\nexit code: ${code}\nstdout:\n${out}\nstderr:\n${err}")
if(NOT code STREQUAL EXIT_CODE)
  message(FATAL_ERROR "expected exit code ${EXIT_CODE}\n${report}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "stdout does not match '${STDOUT}'\n${report}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}'\n${report}")
endif()
