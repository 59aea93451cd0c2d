# Writes each of the project's targets, its folder and what it links or
# depends on, to layer-links.tsv in the build directory, for
# scripts/check-layers.sh to hold against scripts/layers.txt: a target may
# link only targets of its own folder's layer or those below it.
function(bravebot_collect_targets directory out)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    bravebot_collect_targets(${subdirectory} below)
    list(APPEND targets ${below})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(bravebot_write_layer_links)
  bravebot_collect_targets(${CMAKE_SOURCE_DIR} targets)
  set(rows "")
  foreach(target IN LISTS targets)
    get_target_property(source_dir ${target} SOURCE_DIR)
    file(RELATIVE_PATH folder ${CMAKE_SOURCE_DIR} ${source_dir})
    set(links)
    foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES MANUALLY_ADDED_DEPENDENCIES)
      get_target_property(values ${target} ${property})
      if(values)
        list(APPEND links ${values})
      endif()
    endforeach()
    # Tabs and newlines only separate; a link's own text holds neither.
    string(JOIN "\t" links_text ${links})
    string(APPEND rows "${target}\t${folder}\t${links_text}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/layer-links.tsv "${rows}")
endfunction()
